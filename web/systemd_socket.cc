#include "web/systemd_socket.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "base/strings.h"

namespace ovn_raft {

Result<int, std::string> ListenFdCount(
    const std::function<std::optional<std::string>(const std::string&)>& env, pid_t pid) {
  const auto listen_pid = env("LISTEN_PID");
  const auto listen_fds = env("LISTEN_FDS");
  if (!listen_pid || !listen_fds) {
    return std::string(
        "no socket passed by systemd (LISTEN_PID and LISTEN_FDS are not set): start it "
        "through its .socket unit, or drop --web.systemd-socket to listen on "
        "--web.listen-address");
  }
  const auto owner = ParseUint(*listen_pid);
  if (!owner || *owner != static_cast<std::uint64_t>(pid)) {
    return "the sockets systemd passed are not this process' (LISTEN_PID=" + *listen_pid +
           ", this is " + std::to_string(pid) + ")";
  }
  const auto count = ParseUint(*listen_fds);
  if (!count || *count < 1 || *count > 64) {
    return "LISTEN_FDS=" + *listen_fds + " passes no socket (expected 1 to 64)";
  }
  return static_cast<int>(*count);
}

Result<InheritedSocket, std::string> CheckListeningSocket(int fd) {
  const std::string which = "descriptor " + std::to_string(fd);
  int type = 0, listening = 0;
  socklen_t len = sizeof(type);
  if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0) {
    return which + " is not a socket (" + std::strerror(errno) + ")";
  }
  len = sizeof(listening);
  if (type != SOCK_STREAM || getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) != 0 ||
      !listening) {
    return which + " is not a listening stream socket: the .socket unit needs ListenStream=";
  }
  sockaddr_storage addr{};
  len = sizeof(addr);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    return which + ": " + std::strerror(errno);
  }
  char host[INET6_ADDRSTRLEN] = {};
  InheritedSocket s{fd, "", false, 0};
  if (addr.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&addr);
    inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
    s.port = ntohs(in->sin_port);
    s.address = std::string(host) + ":" + std::to_string(s.port);
  } else if (addr.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&addr);
    inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
    s.port = ntohs(in6->sin6_port);
    s.address = "[" + std::string(host) + "]:" + std::to_string(s.port);
    s.ipv6 = true;
  } else {
    return which + " is not a TCP socket (address family " + std::to_string(addr.ss_family) +
           "): the .socket unit's ListenStream= needs a port, or an address and a port";
  }
  return s;
}

Result<std::vector<InheritedSocket>, std::string> TakeSystemdSockets() {
  const auto count = ListenFdCount(
      [](const std::string& name) -> std::optional<std::string> {
        const char* v = std::getenv(name.c_str());
        return v ? std::optional<std::string>(v) : std::nullopt;
      },
      getpid());
  // Whatever the outcome, the variables describe this process only.
  unsetenv("LISTEN_PID");
  unsetenv("LISTEN_FDS");
  unsetenv("LISTEN_FDNAMES");
  if (!count) return count.error();
  std::vector<InheritedSocket> sockets;
  std::vector<std::pair<dev_t, ino_t>> seen;
  for (int fd = kListenFdsStart; fd < kListenFdsStart + count.value(); ++fd) {
    auto checked = CheckListeningSocket(fd);
    if (!checked) return checked.error();
    fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
    // The same socket passed twice (a .socket unit that names it twice, a launcher's
    // mistake) is served once: a second descriptor would only race the first to accept.
    struct stat st {};
    if (fstat(fd, &st) == 0) {
      const std::pair<dev_t, ino_t> id{st.st_dev, st.st_ino};
      if (std::find(seen.begin(), seen.end(), id) != seen.end()) {
        close(fd);
        continue;
      }
      seen.push_back(id);
    }
    sockets.push_back(std::move(checked).value());
  }
  return sockets;
}

}  // namespace ovn_raft
