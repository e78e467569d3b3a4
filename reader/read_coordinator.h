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
  using ReadFn = std::function<Snapshot(std::chrono::milliseconds timeout)>;

  ReadCoordinator(ReadFn read, std::chrono::milliseconds min_interval);

  // The latest snapshot: reused, shared with a round in flight, or read now with `timeout`.
  std::shared_ptr<const Snapshot> Get(std::chrono::milliseconds timeout);
  ErrorCounts errors() const;
  std::uint64_t rounds() const;

 private:
  ReadFn read_;
  const std::chrono::milliseconds min_interval_;
  mutable std::mutex mu_;
  std::condition_variable done_;
  bool in_flight_ = false;
  std::uint64_t rounds_ = 0;
  std::shared_ptr<const Snapshot> latest_;
  Clock::time_point latest_started_;
  ErrorCounts errors_;
  std::map<std::string, std::string> last_reason_;  // db -> reason of its last failure, "" if ok
};

}  // namespace ovn_raft
