#include "web/worker_gate.h"

#if OVN_RAFT_TLS
#include <openssl/ssl.h>
#endif

#include <algorithm>

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

WorkerGate::WorkerGate(int workers, int core) : core_(std::clamp(core, 1, std::max(workers, 1))) {
  // Waiting allocates nothing then: an exception could not cross civetweb's C frames.
  waiting_.reserve(static_cast<std::size_t>(std::max(workers, 0)));
}

void WorkerGate::Enter() {
  entered_gate = this;
  has_connection = false;
  std::unique_lock<std::mutex> lock(mu_);
  core_worker = entered_++ < core_;
  // A reserve worker that starts while no worker in the queue is free (a burst while workers
  // were still starting, and nobody waiting here to let in) takes its place there at once.
  if (core_worker || open_ || free_ < 1) {
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

void WorkerGate::EndedHere() {
  if (entered_gate != nullptr) entered_gate->Ended();
}

bool WorkerGate::HandsWorkOff() { return entered_gate != nullptr && !core_worker; }

void WorkerGate::WatchHandshakes([[maybe_unused]] void* ssl_ctx) {
#if OVN_RAFT_TLS
  // civetweb's init_connection comes only after the handshake, which a client may draw out
  // until the request timeout while it holds the worker.
  SSL_CTX_set_info_callback(static_cast<SSL_CTX*>(ssl_ctx), [](const SSL*, int where, int) {
    if ((where & SSL_CB_HANDSHAKE_START) != 0) TakenHere();
  });
#endif
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
