#pragma once

// Protects ovsdb-server, which runs Raft heartbeats on the same single thread that answers us:
// concurrent scrapes share one round of reads (single flight), and a round younger than the
// minimum interval is reused. Also keeps the cumulative error counts, one increment per failed
// read (not per scrape that reuses it). Thread-safe.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "reader/error_counts.h"
#include "reader/snapshot.h"

namespace ovn_raft {

class ReadCoordinator {
 public:
  using Clock = std::chrono::steady_clock;
  // A round: reads within the reader's own deadline (--ovsdb.timeout), never a client's, so
  // that one client's short deadline cannot spoil the round every concurrent scrape shares.
  using ReadFn = std::function<Snapshot()>;

  ReadCoordinator(ReadFn read, std::chrono::milliseconds min_interval);

  // The latest snapshot: reused, shared with a round in flight, or read now. A caller that
  // finds a round in flight waits at most `wait` (its scraper's deadline) and gets nullptr
  // when the round has not ended by then; the round itself goes on for everyone else.
  std::shared_ptr<const Snapshot> Get(std::chrono::milliseconds wait);
  ErrorCounts errors() const;
  std::uint64_t rounds() const;

 private:
  void EndRound(std::shared_ptr<const Snapshot> snapshot, Clock::time_point started);

  ReadFn read_;
  const std::chrono::milliseconds min_interval_;
  mutable std::mutex mu_;
  std::condition_variable done_;
  bool in_flight_ = false;
  std::uint64_t rounds_ = 0;  // rounds that produced a snapshot
  std::uint64_t ended_ = 0;   // rounds that ended, a snapshot or not (a read that threw)
  std::shared_ptr<const Snapshot> latest_;
  Clock::time_point latest_started_;
  ErrorCounts errors_;
  std::map<std::string, std::string> last_reason_;  // db -> reason of its last failure, "" if ok
  std::map<std::string, bool> file_failing_;        // db -> its watched file's last stat failed
};

}  // namespace ovn_raft
