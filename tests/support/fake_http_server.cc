#include "support/fake_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace ovn_raft::testing {
namespace {

bool Send(int fd, const std::string& data) {
  std::size_t at = 0;
  while (at < data.size()) {
    const ssize_t n = send(fd, data.data() + at, data.size() - at, MSG_NOSIGNAL);
    if (n <= 0) return false;
    at += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

FakeHttpServer::FakeHttpServer(std::string body, bool endless)
    : body_(std::move(body)), endless_(endless) {
  fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  listen(fd_, 16);
  thread_ = std::thread([this] { Run(); });
}

FakeHttpServer::~FakeHttpServer() {
  stopping_ = true;
  shutdown(fd_, SHUT_RDWR);
  thread_.join();
  close(fd_);
}

void FakeHttpServer::Run() {
  while (!stopping_) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    const int c = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) continue;
    char buf[4096];
    std::string request;
    while (request.find("\r\n\r\n") == std::string::npos) {
      const ssize_t n = recv(c, buf, sizeof(buf), 0);
      if (n <= 0) break;
      request.append(buf, static_cast<size_t>(n));
    }
    std::string head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n";
    if (!endless_) head += "Content-Length: " + std::to_string(body_.size()) + "\r\n";
    head += "\r\n";
    bool open = Send(c, head) && Send(c, body_);
    const std::string chunk(1 << 16, ' ');
    while (endless_ && open && !stopping_) open = Send(c, chunk);
    close(c);
  }
}

}  // namespace ovn_raft::testing
