#pragma once

// A few threads of their own that run tasks, in the order given, for callers that wait for
// them. Why: glibc keeps in every thread a cache of the small blocks that thread freed, and
// never hands it back while the thread lives: a thread that hands the work that allocates much
// to a pool keeps no such cache, and the pool's threads' caches are reused (where the web edge
// hands work to one: web/web_server.h, RunWork). With no threads a task runs on its caller.
// Thread-safe.

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
