#pragma once

// The connections each source (SourceKey) holds between accept and close, in civetweb's queue
// or on a worker, bounded per source so that one address, however many connections it opens
// and leaves idle, holds at most `max_per_source` of the queue and the workers. Past that, a new
// connection from the same source takes the place of one of that source's that has not yet
// sent a request, which is to be shut down: the oldest that has sent nothing at all (idle, or a
// TLS handshake never begun), else the oldest still sending one (slow). The new one is refused
// only when all of them are serving requests, or four times as many are already being shed and
// it has sent nothing itself. So
// a scraper sharing an address with idle or slow clients (a proxy in front) still gets in, its
// TLS handshake under way included. Pure bookkeeping, thread-safe: the caller looks at, shuts
// down and closes the sockets.

#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace ovn_raft {

class SourceConnections {
 public:
  // Twice a source's share of the workers (SourceLimiter::ShareOf): past its share a source's
  // requests get 429 at once, which they can only get when they reach a worker.
  static int LimitFor(int workers);

  explicit SourceConnections(int max_per_source) : max_(max_per_source) {}

  // A connection accepted from `source`, told apart from the source's others by its `port`;
  // `fd` is handed back when it is to be shed. `has_sent(fd)`: whether a connection's client
  // has sent anything yet (asked of held ones not known to have, and of the new one when its
  // source is already shedding many).
  struct Shed {
    int fd;
    int port;
  };
  struct Decision {
    bool admitted = true;
    std::optional<Shed> shed;  // to shut down to make room (it stays counted until Closed)
  };
  Decision Opened(const std::string& source, int port, int fd,
                  const std::function<bool(int fd)>& has_sent);
  // The connection's request has arrived: it is never shed.
  void Requested(const std::string& source, int port);
  // The connection was closed (or its socket is no longer the one accepted).
  void Closed(const std::string& source, int port);
  // Connections of `source` counted against its bound (those being shed excluded).
  int held(const std::string& source);

 private:
  struct Entry {
    int port;
    int fd;
    bool requested = false;
    bool sent = false;  // its client has sent something
    bool shed = false;
  };
  // How many times its bound a source may have being shed at once.
  static constexpr int kShedding = 4;
  const int max_;
  std::mutex mu_;
  std::map<std::string, std::deque<Entry>> open_;  // oldest first; only sources with some
};

}  // namespace ovn_raft
