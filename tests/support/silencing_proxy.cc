#include "silencing_proxy.h"

#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

#include "ovsdb/jsonrpc_framing.h"
#include "support/fake_unix_server.h"

namespace ovn_raft::testing {
namespace {

// The "method" member of a JSON-RPC request, as the exporter writes it (no escapes in names).
std::string MethodOf(const std::string& request) {
  auto at = request.find("\"method\"");
  if (at == std::string::npos) return "";
  at = request.find('"', request.find(':', at) + 1);
  const auto end = at == std::string::npos ? at : request.find('"', at + 1);
  return end == std::string::npos ? "" : request.substr(at + 1, end - at - 1);
}

bool SendAll(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = send(fd, data, size, MSG_NOSIGNAL);
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

int ConnectTo(const std::string& path) {
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

SilencingProxy::SilencingProxy(std::string upstream, std::string silenced_method)
    : upstream_(std::move(upstream)), silenced_(std::move(silenced_method)) {
  path_ = dir_ / "proxy.ctl";
  listen_fd_ = FakeUnixServer::ListenOn(path_);
  acceptor_ = std::thread([this] { Accept(); });
}

SilencingProxy::~SilencingProxy() {
  stopping_ = true;
  acceptor_.join();
  for (auto& t : connections_) t.join();
  close(listen_fd_);
  unlink(path_.c_str());
}

int SilencingProxy::requests(const std::string& method) const {
  const std::lock_guard<std::mutex> lock(mu_);
  const auto it = methods_.find(method);
  return it == methods_.end() ? 0 : it->second;
}

void SilencingProxy::Accept() {
  while (!stopping_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (poll(&p, 1, 20) <= 0) continue;
    const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    const std::lock_guard<std::mutex> lock(mu_);
    connections_.emplace_back([this, fd] { Proxy(fd); });
  }
}

void SilencingProxy::Proxy(int client) {
  const int server = ConnectTo(upstream_);
  std::string pending;  // bytes from the client not yet framed into a whole request
  JsonFramer framer;
  char buf[65536];
  while (server >= 0 && !stopping_) {
    pollfd fds[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
    if (poll(fds, 2, 20) <= 0) continue;
    if (fds[1].revents != 0) {  // replies pass as they come
      const ssize_t n = recv(server, buf, sizeof(buf), 0);
      if (n <= 0 || !SendAll(client, buf, static_cast<std::size_t>(n))) break;
    }
    if (fds[0].revents == 0) continue;
    const ssize_t n = recv(client, buf, sizeof(buf), 0);
    if (n <= 0) break;
    pending.append(buf, static_cast<std::size_t>(n));
    bool ok = true;
    while (ok && framer.Scan(pending) == JsonFramer::State::kComplete) {
      const std::string request = pending.substr(0, framer.message_end());
      pending.erase(0, framer.message_end());
      framer = JsonFramer();
      const std::string method = MethodOf(request);
      {
        const std::lock_guard<std::mutex> lock(mu_);
        ++methods_[method];
      }
      if (method != silenced_) ok = SendAll(server, request.data(), request.size());
    }
    if (!ok) break;
  }
  if (server >= 0) close(server);
  close(client);
}

}  // namespace ovn_raft::testing
