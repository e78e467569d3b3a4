#include "fake_unix_server.h"

#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <stdexcept>

#include "ovsdb/jsonrpc_framing.h"
#include "support/fake_ovsdb_server.h"

namespace ovn_raft::testing {

int FakeUnixServer::ListenOn(const std::string& path) {
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      listen(fd, 64) != 0) {
    throw std::runtime_error("cannot listen on " + path);
  }
  return fd;
}

FakeUnixServer::FakeUnixServer(Handler handler) : handler_(std::move(handler)) {
  path_ = dir_ / "fake.ctl";
  listen_fd_ = ListenOn(path_);
  thread_ = std::thread([this] { Run(); });
}

FakeUnixServer::~FakeUnixServer() {
  stopping_ = true;
  thread_.join();
  close(listen_fd_);
}

void FakeUnixServer::WriteAll(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n <= 0) return;  // the client gave up: fine for a fault server
    done += static_cast<std::size_t>(n);
  }
}

void FakeUnixServer::Hang() const {
  while (!stopping()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

void FakeUnixServer::Run() {
  while (!stopping_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (poll(&p, 1, 20) <= 0) continue;
    const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    std::string request;
    JsonFramer framer;
    char buf[4096];
    while (!stopping_) {
      pollfd q{fd, POLLIN, 0};
      if (poll(&q, 1, 20) <= 0) continue;
      const ssize_t n = recv(fd, buf, sizeof(buf), 0);
      if (n <= 0) break;
      request.append(buf, static_cast<std::size_t>(n));
      if (framer.Scan(request) != JsonFramer::State::kIncomplete) break;
    }
    ++requests_;
    {
      const std::lock_guard<std::mutex> lock(mu_);
      ++methods_[RequestMethod(request)];
    }
    handler_(fd, request);
    close(fd);
  }
}

int FakeUnixServer::requests(const std::string& method) const {
  const std::lock_guard<std::mutex> lock(mu_);
  const auto it = methods_.find(method);
  return it == methods_.end() ? 0 : it->second;
}

}  // namespace ovn_raft::testing
