#pragma once

// One round of reads as it goes: each database's reading is added when all its calls have
// ended, so that a scrape whose deadline comes before the round's end serves the databases
// already read and reports the others as not read in time, instead of failing whole.
// Thread-safe: the round adds, scrapes look.

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "reader/snapshot.h"

namespace ovn_raft {

class RoundProgress {
 public:
  // The round's start and its databases, in order, before any of them is read.
  void Begin(std::chrono::system_clock::time_point taken_at,
             const std::vector<DatabaseTarget>& targets);
  // Database `index`'s reading, final (taken by reference: a reading is 2 KiB, and a copy on
  // the stack of the thread that reads would deepen it).
  void Finish(std::size_t index, DatabaseReading&& reading);
  // The whole round, at its end (every database finished); Partial returns it from then on.
  std::shared_ptr<const Snapshot> End();

  // For a scrape whose deadline came first, after waiting `waited`: the readings finished so far
  // and, for each database still being read, its target with the error kScrapeTimeout. Null
  // before Begin (nothing is known yet).
  std::shared_ptr<const Snapshot> Partial(std::chrono::milliseconds waited) const;

 private:
  mutable std::mutex mu_;
  std::shared_ptr<Snapshot> snapshot_;  // null before Begin
  std::vector<bool> finished_;
  bool ended_ = false;
};

}  // namespace ovn_raft
