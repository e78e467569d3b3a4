#pragma once

// Keeps most of civetweb's workers out of its queue until connections need them.
//
// civetweb hands each connection to the worker that has waited longest, so a scraper that comes
// back again and again meets every worker of the pool in turn. A worker that runs a round or
// renders a page keeps glibc's cache of the small blocks it freed for as long as it lives, and
// each one met in turn is cold: with all of them in the queue, memory grew with the number of
// workers and every scrape paid for a cold thread. So only a few workers (the core) always wait
// in civetweb's queue and run that work themselves (HandsWorkOff is false on them). The others
// (the reserve) wait here and are let into the queue one at a time, last come first, whenever no
// worker there is free: a burst of connections, slow or hostile ones included, still meets as
// many workers as --web.max-connections allows. A reserve worker hands the work to the web
// edge's work pool (WebServer::RunWork), and comes back here when it has closed its connection
// and another worker is free.
//
// civetweb's callbacks drive it, each on the worker it is about: Enter when a worker starts,
// TakenHere as soon as it has a connection (civetweb's init_connection, or for TLS the start of
// the handshake: WatchHandshakes), EndedHere when that connection is closed. A reserve worker
// waits in connection_closed, where civetweb holds that worker's own connection lock, which
// nothing else here takes. Thread-safe.

#include <condition_variable>
#include <mutex>
#include <vector>

namespace ovn_raft {

class WorkerGate {
 public:
  // `workers`: civetweb's pool; `core`: how many of them never wait here (at least one).
  WorkerGate(int workers, int core);
  WorkerGate(const WorkerGate&) = delete;
  WorkerGate& operator=(const WorkerGate&) = delete;

  // A worker starts: a core one returns at once, a reserve one when it is let through.
  void Enter();
  // The calling worker has a connection; a second call for the same connection does nothing.
  void Taken();
  // The calling worker closed its connection; a reserve worker may wait here again.
  void Ended();
  // Taken() and Ended() on the gate the calling worker entered, if any.
  static void TakenHere();
  static void EndedHere();
  // Whether the calling thread is a reserve worker, whose allocating work runs on the work pool
  // instead (every other thread, core workers included, runs it itself).
  static bool HandsWorkOff();
  // Has TakenHere called as each TLS handshake of `ssl_ctx` (an OpenSSL SSL_CTX) starts; a
  // build without TLS has none.
  static void WatchHandshakes(void* ssl_ctx);
  // Lets every waiting worker through and keeps none from now on (before civetweb stops).
  void Open();

  // For tests: workers in civetweb's queue with no connection, and workers waiting here.
  int free_workers();
  int waiting_workers();

 private:
  struct Waiter;
  void Wait(std::unique_lock<std::mutex>& lock);
  void LetOneThrough();  // with mu_ held

  const int core_;
  // Guards every field below. Never held while a worker runs a connection: only for counting,
  // and by a reserve worker while it waits on its condition variable (which releases it).
  std::mutex mu_;
  // Workers that have called Enter. Only grows; the first core_ of them are the core workers,
  // which never wait here. Guarded by mu_.
  int entered_ = 0;
  // Workers in civetweb's queue with no connection: core workers, and reserve workers let
  // through, that have not yet taken one. Each is counted from Enter (or being let through) to
  // Taken, and again from Ended until it leaves the queue. While a worker waits in waiting_ and
  // the gate is closed, Taken lets one through whenever free_ would drop below one, so that a
  // new connection always finds a free worker. Guarded by mu_.
  int free_ = 0;
  // Set once by Open (civetweb stopping) and never cleared: from then on no worker waits here
  // and waiting_ stays empty. Guarded by mu_.
  bool open_ = false;
  // Reserve workers waiting here, each a Waiter on its own stack that stays valid until it is
  // taken off this list and told to go (LetOneThrough). The last to come is let through first:
  // its stack is warm. Capacity reserved for every worker, so waiting allocates nothing.
  // Guarded by mu_.
  std::vector<Waiter*> waiting_;
};

}  // namespace ovn_raft
