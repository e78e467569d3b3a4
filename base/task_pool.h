#pragma once

// A few threads of their own that run tasks, in the order given, for callers that wait for
// them. Why: glibc keeps in every thread a cache of the small blocks that thread freed, and
// never hands it back while the thread lives. The web edge has many threads (one per connection
// served at once, each in turn), so the work that allocates much (a round of reads, a page's
// rendering) runs here instead, on a few threads whose caches are then reused, not refilled on
// every worker. Thread-safe.

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ovn_raft {

class TaskPool {
 public:
  explicit TaskPool(int threads);
  ~TaskPool();  // finishes the tasks queued, then joins
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  // Runs `task` on one of the pool's threads and returns when it has ended; an exception it
  // throws is thrown here.
  void Run(const std::function<void()>& task);

 private:
  struct Job;
  void Serve();

  std::mutex mu_;
  std::condition_variable queued_;
  std::deque<Job*> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace ovn_raft
