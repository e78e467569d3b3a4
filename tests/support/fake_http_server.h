#pragma once

// An HTTP server on 127.0.0.1 that answers every request with one fixed body: a hostile or
// lying exporter, which a real exporter cannot be made into.

#include <atomic>
#include <string>
#include <thread>

namespace ovn_raft::testing {

class FakeHttpServer {
 public:
  // `endless`: after `body`, a body that never ends (until the client goes).
  explicit FakeHttpServer(std::string body, bool endless = false);
  ~FakeHttpServer();
  FakeHttpServer(const FakeHttpServer&) = delete;
  FakeHttpServer& operator=(const FakeHttpServer&) = delete;
  std::string Url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  void Run();
  std::string body_;
  bool endless_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace ovn_raft::testing
