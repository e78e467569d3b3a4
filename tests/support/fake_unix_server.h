#pragma once

// A unix-socket server for the faults a real ovsdb-server cannot be made to produce: never
// answering, answering garbage, answering in tiny pieces or with a huge reply. Serves one
// connection at a time on its own thread; counts the requests it received.

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "support/temp_dir.h"

namespace ovn_raft::testing {

class FakeUnixServer {
 public:
  // Called with the accepted socket and the request it sent; the socket closes on return.
  // Long-running handlers should return once `stopping()` turns true.
  using Handler = std::function<void(int fd, const std::string& request)>;

  explicit FakeUnixServer(Handler handler);
  ~FakeUnixServer();
  FakeUnixServer(const FakeUnixServer&) = delete;
  FakeUnixServer& operator=(const FakeUnixServer&) = delete;

  const std::string& path() const { return path_; }
  int requests() const { return requests_.load(); }
  // Requests for one method ("cluster/status"): the exporter also asks `version` once per
  // session of the server, and this server closes every connection after one request (each
  // round is a new session to the exporter).
  int requests(const std::string& method) const;
  bool stopping() const { return stopping_.load(); }

  // Helpers for handlers.
  static void WriteAll(int fd, const std::string& data);
  // A unix stream socket listening at `path` (for other fakes too); throws when it cannot.
  static int ListenOn(const std::string& path);
  // Sleeps until the server stops (a server that never answers).
  void Hang() const;

 private:
  void Run();

  Handler handler_;
  TempDir dir_{"ovn-raft-fake"};
  std::string path_;
  int listen_fd_ = -1;
  std::atomic<bool> stopping_{false};
  std::atomic<int> requests_{0};
  mutable std::mutex mu_;
  std::map<std::string, int> methods_;  // requests per "method" member
  std::thread thread_;
};

}  // namespace ovn_raft::testing
