#include "base/task_pool.h"

#include <exception>

namespace ovn_raft {

struct TaskPool::Job {
  void (*invoke)(void*);
  void* task;
  std::exception_ptr error;
  bool done = false;
  std::condition_variable ended;
};

TaskPool::TaskPool(int threads) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Serve(); });
}

TaskPool::~TaskPool() {
  {
    const std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  queued_.notify_all();
  for (auto& t : threads_) t.join();
}

void TaskPool::RunErased(void (*invoke)(void*), void* task) {
  if (threads_.empty()) {
    invoke(task);
    return;
  }
  Job job{invoke, task, nullptr, false, {}};
  std::unique_lock<std::mutex> lock(mu_);
  jobs_.push_back(&job);
  queued_.notify_one();
  job.ended.wait(lock, [&] { return job.done; });
  if (job.error) std::rethrow_exception(job.error);
}

void TaskPool::Serve() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    queued_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stopping, nothing left
    Job* job = jobs_.front();
    jobs_.pop_front();
    lock.unlock();
    try {
      job->invoke(job->task);
    } catch (...) {
      job->error = std::current_exception();
    }
    lock.lock();
    job->done = true;
    job->ended.notify_one();
  }
}

}  // namespace ovn_raft
