#pragma once

// --web.systemd-socket: the listening sockets systemd passes a service it starts through a
// .socket unit (sd_listen_fds(3)): LISTEN_PID is the service's pid, LISTEN_FDS how many
// descriptors, the first being 3. systemd then holds the port, so the service may start before
// its address exists and restart without refusing connections. The variables are parsed
// purely; the descriptors are checked and taken at the edge.

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace ovn_raft {

// The first descriptor systemd passes (SD_LISTEN_FDS_START).
constexpr int kListenFdsStart = 3;

// How many descriptors LISTEN_FDS passes to process `pid`, or why none can be used.
Result<int, std::string> ListenFdCount(
    const std::function<std::optional<std::string>(const std::string&)>& env, pid_t pid);

// A passed socket, checked: a TCP socket that listens.
struct InheritedSocket {
  int fd = -1;
  std::string address;  // as the socket is bound, e.g. "[::]:10476" or "127.0.0.1:10476"
  bool ipv6 = false;
  std::uint16_t port = 0;
};

// Descriptor `fd` if it is a listening TCP (IPv4 or IPv6) stream socket, else what it is.
Result<InheritedSocket, std::string> CheckListeningSocket(int fd);

// The process' passed sockets, each checked and closed on exec; LISTEN_PID, LISTEN_FDS and
// LISTEN_FDNAMES are removed from the environment so that no child takes them as its own.
// Not thread-safe (it changes the environment): called once at start.
Result<std::vector<InheritedSocket>, std::string> TakeSystemdSockets();

}  // namespace ovn_raft
