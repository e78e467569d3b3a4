#pragma once

// The I/O edge: reads every watched database from the local ovsdb-server over connections kept
// open between rounds. Read-only: sends only `cluster/status`, a _Server select, `memory/show`,
// `ovsdb-server/get-db-storage-status` and, once per connection to the server, `version`.
//
// The server's own facts (`memory/show` and the storage status) are asked at most once per
// `facts_interval` and reused in between: slow-moving counts, and ovsdb-server answers
// memory/show only on the next turn of its main loop, which made a round wait for a second
// turn. Every round still reads cluster/status and _Server.
//
// A database this process has read as a cluster member and that the server then stops
// serving has left its cluster (`cluster/leave`: ovsdb-server removes the database once it
// has left): a state, reported as status "left", not a read error. One never served here is
// an error (a wrong --ovsdb.database name, or the member left before the exporter started).

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ovsdb/jsonrpc_client.h"
#include "reader/database_target.h"
#include "reader/log_compaction_clock.h"
#include "reader/snapshot.h"

namespace ovn_raft {

// The default of --ovsdb.max-members.
inline constexpr std::size_t kDefaultMaxMembers = 256;
// The memory budget of one read round for the replies of all its calls (never below one reply
// at --ovsdb.max-reply-size), shared equally by the databases, so that a hostile server behind
// one cannot starve the others. Chosen so that a round in which every call is answered at the
// default cap by a hostile server, for two databases, keeps the process under the shipped container
// limit (deploy/, docs/dev/hostile-input.md); a real round uses a few KiB of it.
inline constexpr std::size_t kRoundBudgetBytes = 16u << 20;

class DatabaseReader {
 public:
  // A status listing more than `max_members` is refused (kViewTooLarge): the series of one
  // scrape grow with the members, and no real cluster comes near it.
  DatabaseReader(const std::vector<DatabaseTarget>& targets, const CallOptions& options,
                 std::size_t max_members = kDefaultMaxMembers,
                 std::chrono::milliseconds facts_interval = std::chrono::milliseconds(0));

  // Reads every database at once: all requests go out together and the replies are awaited
  // together, so one hung database delays nothing but itself and the round ends within
  // the options' timeout. Thread-safe (rounds are serialised; the ReadCoordinator never
  // overlaps them).
  Snapshot ReadAll();

 private:
  struct Slot {
    explicit Slot(const DatabaseTarget& t)
        : target(t), ctl(t.ctl_path), memory_ctl(t.ctl_path), storage_ctl(t.ctl_path) {}
    DatabaseTarget target;
    // A unixctl connection answers one request at a time: a round's requests go out at once on
    // connections of their own to the same socket. With a facts interval, the two for the facts
    // are opened when the facts are due and closed after: no idle connection waits on the
    // server in between.
    JsonRpcConnection ctl;                    // cluster/status (and `version`)
    JsonRpcConnection memory_ctl;             // memory/show
    JsonRpcConnection storage_ctl;            // ovsdb-server/get-db-storage-status
    std::unique_ptr<JsonRpcConnection> sock;  // null when no database socket was given
    bool was_member = false;                  // this process has read it as a cluster member
    // The server's release, asked once per connection: a server that restarted (another
    // build, during an upgrade) is a new connection.
    std::optional<std::string> ovs_version;
    std::uint64_t version_connects = 0;  // ctl.connects() when ovs_version was read
    // When ctl's current session began (JsonRpcConnection::sessions): the server has run,
    // unrestarted, at least since.
    std::chrono::system_clock::time_point seen_since;
    std::uint64_t seen_since_sessions = 0;  // ctl.sessions() then
    LogCompactionClock log_clock;  // since when the log's entries have waited, on this connection
    // The server's facts as last read whole (both answered), on ctl's connection `facts_connects`
    // at `facts_at`: reused while younger than facts_interval and the server has not restarted.
    std::optional<MemoryUsage> memory;
    std::optional<StorageStatus> storage;
    std::chrono::steady_clock::time_point facts_at;
    std::uint64_t facts_connects = 0;
  };

  // Whether the slot holds facts its server may still stand behind.
  static bool FactsHeld(const Slot& slot);
  // Whether this round asks the slot's server for its facts again.
  bool FactsDue(const Slot& slot, std::chrono::steady_clock::time_point now) const;

  // Updates what the slot has seen of its server's run and log with this round's reading.
  static void Observe(Slot& slot, std::chrono::system_clock::time_point now, DatabaseReading& r);

  // Asks `version` of every server whose answer is not known for its current connection.
  // `budgets`: one per slot, in slots_' order.
  void ReadVersions(std::chrono::steady_clock::time_point deadline,
                    const std::vector<std::unique_ptr<ReplyBudget>>& budgets);

  Snapshot ReadRound(std::size_t* reply_bytes);

  CallOptions options_;
  std::size_t max_members_;
  std::chrono::milliseconds facts_interval_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::mutex mu_;
};

}  // namespace ovn_raft
