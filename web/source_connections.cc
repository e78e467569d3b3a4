#include "web/source_connections.h"

#include <algorithm>

#include "web/source_limiter.h"

namespace ovn_raft {

int SourceConnections::LimitFor(int workers) { return 2 * SourceLimiter::ShareOf(workers); }

SourceConnections::Decision SourceConnections::Opened(const std::string& source, int port, int fd,
                                                      const std::function<bool(int fd)>& has_sent) {
  const std::lock_guard<std::mutex> lock(mu_);
  auto& entries = open_[source];
  Decision decision;
  const auto held =
      std::count_if(entries.begin(), entries.end(), [](const Entry& e) { return !e.shed; });
  // Many already being shed, each waiting for a worker to close it: a source that comes back
  // as fast as it is shed is refused instead, at no cost to a worker, so that its connections
  // never fill the queue ahead of other sources'. Not a connection whose client has spoken
  // already: a scraper sends its request (or ClientHello) as soon as it connects, a flood that
  // holds connections does not, and the scraper may share the flood's address.
  if (held >= max_ && static_cast<int>(entries.size() - held) >= kShedding * max_ &&
      !has_sent(fd)) {
    decision.admitted = false;
    return decision;
  }
  if (held >= max_) {
    auto idle = std::find_if(entries.begin(), entries.end(), [&](Entry& e) {
      if (e.shed || e.requested || e.sent) return false;
      e.sent = has_sent(e.fd);
      return !e.sent;
    });
    if (idle == entries.end()) {
      idle = std::find_if(entries.begin(), entries.end(),
                          [](const Entry& e) { return !e.shed && !e.requested; });
    }
    if (idle == entries.end()) {
      decision.admitted = false;
      if (entries.empty()) open_.erase(source);
      return decision;
    }
    idle->shed = true;
    decision.shed = Shed{idle->fd, idle->port};
  }
  entries.push_back(Entry{port, fd});
  return decision;
}

void SourceConnections::Requested(const std::string& source, int port) {
  const std::lock_guard<std::mutex> lock(mu_);
  const auto it = open_.find(source);
  if (it == open_.end()) return;
  for (auto& e : it->second) {
    if (e.port == port) e.requested = true;
  }
}

void SourceConnections::Closed(const std::string& source, int port) {
  const std::lock_guard<std::mutex> lock(mu_);
  const auto it = open_.find(source);
  if (it == open_.end()) return;
  auto& entries = it->second;
  entries.erase(std::remove_if(entries.begin(), entries.end(),
                               [port](const Entry& e) { return e.port == port; }),
                entries.end());
  if (entries.empty()) open_.erase(it);
}

int SourceConnections::held(const std::string& source) {
  const std::lock_guard<std::mutex> lock(mu_);
  const auto it = open_.find(source);
  if (it == open_.end()) return 0;
  return static_cast<int>(
      std::count_if(it->second.begin(), it->second.end(), [](const Entry& e) { return !e.shed; }));
}

}  // namespace ovn_raft
