#pragma once

// A unixctl socket in front of a real one (a real ovsdb-server's) that passes every request and
// reply through, but never answers the requests of one method: the fault of a server that
// answers cluster/status and leaves `version` or `memory/show` unanswered, which a real server
// cannot be made to produce. Each connection is proxied on a thread of its own, kept as long as
// the client keeps it.

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ovn_raft::testing {

class SilencingProxy {
 public:
  SilencingProxy(std::string upstream, std::string silenced_method);
  ~SilencingProxy();
  SilencingProxy(const SilencingProxy&) = delete;
  SilencingProxy& operator=(const SilencingProxy&) = delete;

  const std::string& path() const { return path_; }
  // Requests received for `method`, passed or not.
  int requests(const std::string& method) const;

 private:
  void Accept();
  void Proxy(int client);

  std::string upstream_;
  std::string silenced_;
  std::string dir_;
  std::string path_;
  int listen_fd_ = -1;
  std::atomic<bool> stopping_{false};
  mutable std::mutex mu_;
  std::map<std::string, int> methods_;
  std::vector<std::thread> connections_;  // guarded by mu_
  std::thread acceptor_;
};

}  // namespace ovn_raft::testing
