#pragma once

// The I/O edge: reads every watched database from the local ovsdb-server over connections kept
// open between rounds. Read-only: sends only `cluster/status`, a _Server select, `memory/show`,
// `ovsdb-server/get-db-storage-status`, `coverage/read-counter long_poll_interval` and, once per
// session of the server, `version`.
//
// Every call of a round goes out at once on a connection of its own, so a call the server
// leaves unanswered costs only itself: the others' replies are used whatever it does. A server
// that answers cluster/status but leaves `version`, `memory/show` or the storage status
// unanswered is not asked that again for a while (kUnansweredRetry), or every round would wait
// for it until the deadline.
//
// The server's own facts (`memory/show`, the storage status, its long-poll count) are asked at most
// once per `facts_interval` and reused in between: slow-moving counts, and ovsdb-server answers
// memory/show only on the next turn of its main loop, which made a round wait for a second
// turn. Every round still reads cluster/status and _Server.
//
// A database this process has read as a cluster member and that the server then stops
// serving has left its cluster (`cluster/leave`: ovsdb-server removes the database once it
// has left): a state, reported as status "left", not a read error. One never served here is
// an error (a wrong --ovsdb.database name, or the member left before the exporter started).
//
// A standalone or relay database has no Raft status: its _Server row says so, and it is read
// through that row and its server's facts, cluster/status's error being expected
// (model_reading.h). Without the database socket its model is not known.

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
#include "reader/round_progress.h"
#include "reader/session_fact.h"
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
// How long a server that answered cluster/status but not `version` or one of its facts is
// spared the call it left unanswered (session_fact.h).
inline constexpr std::chrono::minutes kUnansweredRetry{5};

class DatabaseReader {
 public:
  // A status listing more than `max_members` is refused (kViewTooLarge): the series of one
  // scrape grow with the members, and no real cluster comes near it.
  DatabaseReader(const std::vector<DatabaseTarget>& targets, const CallOptions& options,
                 std::size_t max_members = kDefaultMaxMembers,
                 std::chrono::milliseconds facts_interval = std::chrono::milliseconds(0));

  // Reads every database at once: all requests go out together and the replies are awaited
  // together, so one hung database delays nothing but itself and the round ends within
  // the options' timeout. Each database's reading goes to `progress` as soon as its calls have
  // ended; returns the whole round (progress.End()). Thread-safe (rounds are serialised; the
  // ReadCoordinator never overlaps them).
  std::shared_ptr<const Snapshot> ReadAll(RoundProgress& progress);

 private:
  using SteadyTime = std::chrono::steady_clock::time_point;
  using WallTime = std::chrono::system_clock::time_point;

  struct Slot {
    explicit Slot(const DatabaseTarget& t)
        : target(t),
          ctl(t.ctl_path),
          memory_ctl(t.ctl_path),
          storage_ctl(t.ctl_path),
          coverage_ctl(t.ctl_path) {}
    DatabaseTarget target;
    // A unixctl connection answers one request at a time: a round's requests go out at once on
    // connections of their own to the same socket. ctl is kept; the others are opened when
    // their call is due and closed after (with a facts interval; version always), so that no
    // idle connection waits on the server in between.
    JsonRpcConnection ctl;           // cluster/status; its sessions are the server's runs
    JsonRpcConnection memory_ctl;    // memory/show
    JsonRpcConnection storage_ctl;   // ovsdb-server/get-db-storage-status
    JsonRpcConnection coverage_ctl;  // coverage/read-counter long_poll_interval
    // `version`, once per session: made only then (a connection holds a whole receive buffer).
    std::unique_ptr<JsonRpcConnection> version_ctl;
    std::unique_ptr<JsonRpcConnection> sock;  // null when no database socket was given
    bool was_member = false;                  // this process has read it as a cluster member
    // When ctl's current session began (JsonRpcConnection::sessions): the server has run,
    // unrestarted, at least since.
    WallTime seen_since;
    std::uint64_t seen_since_sessions = 0;  // ctl.sessions() then
    LogCompactionClock log_clock;  // since when the log's entries have waited, in this session
    // What the server says of itself: its release once per session (a restarted server may be
    // another build), its facts at most once per facts_interval.
    SessionFact<std::string> version;
    SessionFact<MemoryUsage> memory;
    SessionFact<StorageStatus> storage;
    // The long-poll count; an error answer (a release without the counter) holds nothing for
    // the whole session.
    SessionFact<std::optional<std::uint64_t>> long_polls;
  };

  // Where one database's calls stand in the round's list, and how many have not ended.
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  struct Asked {
    std::size_t status = kNone, select = kNone, memory = kNone, storage = kNone, version = kNone,
                long_polls = kNone;
    std::size_t pending = 0;
  };

  // The steps of a round, in order.
  // The calls of one database: cluster/status and the _Server select always; the facts and
  // `version` when due.
  Asked AskCalls(Slot& slot, SteadyTime start, ReplyBudget* budget,
                 std::vector<JsonRpcCall>& calls) const;
  // One database's reading, once all its calls have ended.
  DatabaseReading Reading(Slot& slot, const std::vector<JsonRpcCall>& calls, const Asked& a,
                          SteadyTime start, WallTime taken_at, std::size_t* reply_bytes) const;
  // The parts of a reading, each from its own call.
  void ReadStatus(const JsonRpcCall& status, DatabaseReading& r, std::size_t* reply_bytes) const;
  void TakeFacts(Slot& slot, const std::vector<JsonRpcCall>& calls, const Asked& a,
                 std::optional<std::uint64_t> session, SteadyTime start, DatabaseReading& r) const;
  void TakeLongPolls(Slot& slot, const std::vector<JsonRpcCall>& calls, const Asked& a,
                     std::optional<std::uint64_t> session, SteadyTime start,
                     DatabaseReading& r) const;
  static void ReadServerRow(const JsonRpcCall& select, DatabaseReading& r);
  static void TakeVersion(Slot& slot, const std::vector<JsonRpcCall>& calls, const Asked& a,
                          std::optional<std::uint64_t> session, SteadyTime start,
                          DatabaseReading& r);
  static void ReadFile(Slot& slot, DatabaseReading& r);
  // Updates what the slot has seen of its server's run and log with this round's reading.
  static void Observe(Slot& slot, bool answered, WallTime now, DatabaseReading& r);
  // A member this process has read that the server no longer serves has left.
  static void MarkLeft(Slot& slot, bool read_server, DatabaseReading& r);

  std::size_t ReadRound(RoundProgress& progress);

  CallOptions options_;
  std::size_t max_members_;
  std::chrono::milliseconds facts_interval_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::mutex mu_;
};

}  // namespace ovn_raft
