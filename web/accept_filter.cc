#include "web/accept_filter.h"

#include <netinet/in.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

namespace ovn_raft {
namespace {

std::mutex& Mutex() {
  static std::mutex mu;
  return mu;
}

std::map<std::uint16_t, const AcceptFilter*>& Filters() {
  static std::map<std::uint16_t, const AcceptFilter*> filters;
  return filters;
}

std::atomic<int> registered{0};

// The port a listening socket is bound to; -1 when it is neither IPv4 nor IPv6.
[[maybe_unused]] int LocalPort(int fd) {  // only a wrapped accept() asks
  sockaddr_storage local{};
  socklen_t len = sizeof(local);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) != 0) return -1;
  if (local.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&local)->sin_port);
  if (local.ss_family == AF_INET6) {
    return ntohs(reinterpret_cast<sockaddr_in6*>(&local)->sin6_port);
  }
  return -1;
}

}  // namespace

bool AcceptFiltersLinked() {
#ifdef OVN_RAFT_ACCEPT_FILTER
  return true;
#else
  return false;
#endif
}

AcceptFilterRegistration::AcceptFilterRegistration(std::vector<std::uint16_t> ports,
                                                   const AcceptFilter* filter)
    : ports_(std::move(ports)) {
  const std::lock_guard<std::mutex> lock(Mutex());
  for (const auto port : ports_) Filters()[port] = filter;
  registered = static_cast<int>(Filters().size());
}

AcceptFilterRegistration::~AcceptFilterRegistration() {
  const std::lock_guard<std::mutex> lock(Mutex());
  for (const auto port : ports_) Filters().erase(port);
  registered = static_cast<int>(Filters().size());
}

}  // namespace ovn_raft

#ifdef OVN_RAFT_ACCEPT_FILTER
extern "C" int __real_accept(int fd, sockaddr* addr, socklen_t* len);

// Every accept() of the program's objects comes here (the link wraps it); a connection accepted
// on a registered port is shown to its filter. One the filter closed is reported as EAGAIN,
// which civetweb takes as nothing accepted: it polls again.
extern "C" int __wrap_accept(int fd, sockaddr* addr, socklen_t* len) {
  const socklen_t given = len != nullptr ? *len : 0;
  const int accepted = __real_accept(fd, addr, len);
  if (accepted < 0 || ovn_raft::registered == 0) return accepted;
  const int port = ovn_raft::LocalPort(fd);
  const std::lock_guard<std::mutex> lock(ovn_raft::Mutex());
  const auto it = ovn_raft::Filters().find(static_cast<std::uint16_t>(port));
  if (port < 0 || it == ovn_raft::Filters().end()) return accepted;
  // The peer accept() already wrote whole, when its caller asked for it; else the socket's.
  sockaddr_storage peer{};
  socklen_t peer_len = sizeof(peer);
  if (addr != nullptr && len != nullptr && *len <= given && *len <= sizeof(peer)) {
    std::memcpy(&peer, addr, *len);
  } else if (getpeername(accepted, reinterpret_cast<sockaddr*>(&peer), &peer_len) != 0) {
    return accepted;
  }
  if ((*it->second)(accepted, peer)) return accepted;
  errno = EAGAIN;
  return -1;
}
#endif
