#pragma once

// The real ovn-raft-exporter binary, started for a test and stopped with SIGTERM, plus the
// project's HTTP GET. Integration tests scrape over real HTTP as Prometheus does.

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

#include "http_client/http_get.h"
#include "support/test_paths.h"

namespace ovn_raft::testing {

using HttpResult = HttpGetResult;

HttpResult HttpGet(const std::string& url, const std::string& user_password = "",
                   long timeout_ms = 10000);

// A TCP port of this test process's own block (ports.h), on any loopback address.
int FreePort();

class ExporterProcess {
 public:
  // Waits until /healthz answers. `port` 0 picks a free one.
  explicit ExporterProcess(std::vector<std::string> args, int port = 0);
  // With its own --web.listen-address flags in `args` (TLS, IPv6, several): waits until
  // `ready(port)` is true.
  ExporterProcess(std::vector<std::string> args, int port,
                  const std::function<bool(int port)>& ready);
  ~ExporterProcess();
  ExporterProcess(const ExporterProcess&) = delete;
  ExporterProcess& operator=(const ExporterProcess&) = delete;

  std::string Url(const std::string& path = "/metrics") const;
  HttpResult Get(const std::string& path = "/metrics") const { return HttpGet(Url(path)); }
  // Sends SIGTERM and returns the exit status (-1 when it did not exit within `timeout_ms`).
  int Terminate(int timeout_ms = 5000);
  const std::string& log_path() const { return log_; }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }

 private:
  void Start(std::vector<std::string> args, const std::function<bool(int port)>& ready);
  pid_t pid_ = -1;
  int port_ = 0;
  std::string log_;
};

}  // namespace ovn_raft::testing
