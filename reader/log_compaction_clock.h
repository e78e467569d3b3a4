#pragma once

// How long a member's Raft log has held entries that wait for a compaction, as one exporter
// sees it across rounds. Pure: fed the log's bounds each round, it keeps no I/O.
//
// ovsdb-server compacts a log that holds entries at the latest 24 h after its last snapshot,
// so the clock starts when the log is first seen holding entries (empty: nothing to compact)
// and again whenever its first index moves (a compaction). A new connection to the server
// (Reset) starts it too: what happened before is unknown, so the clock is late, never early.

#include <chrono>
#include <cstdint>
#include <optional>

namespace ovn_raft {

class LogCompactionClock {
 public:
  using TimePoint = std::chrono::system_clock::time_point;

  // Records this round's `Log: [first, next]` and returns since when its entries have waited.
  TimePoint Observe(TimePoint now, std::uint64_t first, std::optional<std::uint64_t> next);

  // The exporter's connection to the server opened anew: nothing before `now` is known.
  void Reset() { first_.reset(); }

 private:
  std::optional<std::uint64_t> first_;
  TimePoint since_{};
};

}  // namespace ovn_raft
