#pragma once

// Protects ovsdb-server, which runs Raft heartbeats on the same single thread that answers us:
// concurrent scrapes share one round of reads (single flight), and a round younger than the
// minimum interval is reused. Also keeps the cumulative error counts, one increment per failed
// read (not per scrape that reuses it), and logs what changed: a database failing or recovered,
// or found to be of another model (standalone, relay) than clustered. Thread-safe.
//
// A scrape never waits past its own deadline: when it comes before the round's end, the scrape
// gets the databases read so far and the others as not read in time (kScrapeTimeout, counted
// once per scrape), and the round goes on for everyone else. A caller that can wait for a
// whole round (`round_limit`) runs it itself; another hands it to a thread of the
// coordinator's, so that it can leave when its deadline comes.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "reader/error_counts.h"
#include "reader/round_progress.h"
#include "reader/snapshot.h"

namespace ovn_raft {

class ReadCoordinator {
 public:
  using Clock = std::chrono::steady_clock;
  // A round: reads within the reader's own deadline (--ovsdb.timeout), never a client's, so
  // that one client's short deadline cannot spoil the round every concurrent scrape shares.
  // Reports each database to the progress as it is read (RoundProgress) and returns the round.
  using ReadFn = std::function<std::shared_ptr<const Snapshot>(RoundProgress&)>;

  // `round_limit`: the longest a round takes (its deadline and a margin); 0 when every
  // caller runs the rounds it starts.
  ReadCoordinator(ReadFn read, std::chrono::milliseconds min_interval,
                  std::chrono::milliseconds round_limit = std::chrono::milliseconds(0));
  ~ReadCoordinator();  // waits for a round in flight on the coordinator's thread
  ReadCoordinator(const ReadCoordinator&) = delete;
  ReadCoordinator& operator=(const ReadCoordinator&) = delete;

  // The latest snapshot: reused, shared with a round in flight, or read now. A caller waits
  // at most `wait` (its scraper's deadline) for a round in flight, then gets what the round has
  // read so far (RoundProgress::Partial); nullptr when the round has read nothing yet and no
  // earlier one exists, or when the round ended without a snapshot (a read that threw).
  std::shared_ptr<const Snapshot> Get(std::chrono::milliseconds wait);
  ErrorCounts errors() const;
  std::uint64_t rounds() const;

 private:
  std::shared_ptr<const Snapshot> RunRound(const std::shared_ptr<RoundProgress>& progress,
                                           Clock::time_point started);
  std::shared_ptr<const Snapshot> Late(const RoundProgress& progress,
                                       std::chrono::milliseconds waited);
  void EndRound(std::shared_ptr<const Snapshot> snapshot, Clock::time_point started);
  void Serve();  // the coordinator's thread: runs the rounds handed to it

  ReadFn read_;
  const std::chrono::milliseconds min_interval_;
  const std::chrono::milliseconds round_limit_;
  mutable std::mutex mu_;
  std::condition_variable done_;
  bool in_flight_ = false;
  std::shared_ptr<RoundProgress> progress_;  // the round in flight's
  Clock::time_point started_;                // when it started
  std::uint64_t rounds_ = 0;                 // rounds that produced a snapshot
  std::uint64_t ended_ = 0;  // rounds that ended, a snapshot or not (a read that threw)
  std::shared_ptr<const Snapshot> latest_;
  Clock::time_point latest_started_;
  ErrorCounts errors_;
  std::map<std::string, std::string> last_reason_;  // db -> reason of its last failure, "" if ok
  std::map<std::string, bool> file_failing_;        // db -> its watched file's last stat failed
  std::map<std::string, DatabaseModel> model_;      // db -> the model it was last read as
  // The coordinator's thread, started by the first round handed to it.
  std::condition_variable handed_;
  bool handed_round_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace ovn_raft
