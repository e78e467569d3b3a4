#pragma once

// A few threads of their own that run tasks, in the order given, for callers that wait for
// them. Why: glibc keeps in every thread a cache of the small blocks that thread freed, and
// never hands it back while the thread lives. The web edge has many threads (one per connection
// served at once, each in turn), so the work that allocates much (a round of reads, a page's
// rendering) runs here instead, on a few threads whose caches are then reused, not refilled on
// every worker. With no threads (where those caches are off, nothing is gained by the hand-over)
// a task runs on its caller. Thread-safe.

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace ovn_raft {

class TaskPool {
 public:
  explicit TaskPool(int threads);  // 0: every task runs on the thread that asks
  ~TaskPool();                     // finishes the tasks queued, then joins
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  // Runs `task` on one of the pool's threads and returns when it has ended; an exception it
  // throws is thrown here. The caller allocates nothing (no std::function is made).
  template <typename Task>
  void Run(Task&& task) {
    RunErased(&Invoke<std::remove_reference_t<Task>>, &task);
  }

 private:
  struct Job;
  template <typename Task>
  static void Invoke(void* task) {
    (*static_cast<Task*>(task))();
  }
  void RunErased(void (*invoke)(void*), void* task);
  void Serve();

  std::mutex mu_;
  std::condition_variable queued_;
  std::deque<Job*> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace ovn_raft
