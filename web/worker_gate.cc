#include "web/worker_gate.h"

#include "base/task_pool.h"

namespace ovn_raft {
namespace {

// What the calling worker is: the gate it entered, whether it is a core worker, whether it has
// a connection now.
thread_local WorkerGate* entered_gate = nullptr;
thread_local bool core_worker = false;
thread_local bool has_connection = false;

}  // namespace

struct WorkerGate::Waiter {
  std::condition_variable go;
  bool through = false;
};

WorkerGate::WorkerGate(int workers, int core) : core_(core < workers ? core : workers) {}

void WorkerGate::Enter() {
  entered_gate = this;
  std::unique_lock<std::mutex> lock(mu_);
  if (entered_ < core_) {
    ++entered_;
    core_worker = true;
    TaskPool::RunTasksOnThisThread();
    ++free_;
    return;
  }
  ++entered_;
  if (open_) {
    ++free_;
    return;
  }
  Wait(lock);
}

void WorkerGate::Taken() {
  if (has_connection) return;
  has_connection = true;
  const std::lock_guard<std::mutex> lock(mu_);
  --free_;
  // One free worker stays in civetweb's queue for the next connection while any waits here.
  if (free_ < 1) LetOneThrough();
}

void WorkerGate::TakenHere() {
  if (entered_gate != nullptr) entered_gate->Taken();
}

void WorkerGate::Ended() {
  if (!has_connection) return;
  has_connection = false;
  std::unique_lock<std::mutex> lock(mu_);
  ++free_;
  // A reserve worker leaves the queue while another worker there is free.
  if (!core_worker && !open_ && free_ > 1) {
    --free_;
    Wait(lock);
  }
}

void WorkerGate::Open() {
  const std::lock_guard<std::mutex> lock(mu_);
  open_ = true;
  while (!waiting_.empty()) LetOneThrough();
}

int WorkerGate::free_workers() {
  const std::lock_guard<std::mutex> lock(mu_);
  return free_;
}

int WorkerGate::waiting_workers() {
  const std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(waiting_.size());
}

void WorkerGate::Wait(std::unique_lock<std::mutex>& lock) {
  Waiter me;
  waiting_.push_back(&me);
  me.go.wait(lock, [&] { return me.through; });
}

void WorkerGate::LetOneThrough() {
  if (waiting_.empty()) return;
  Waiter* w = waiting_.back();
  waiting_.pop_back();
  w->through = true;
  ++free_;
  w->go.notify_one();
}

}  // namespace ovn_raft
