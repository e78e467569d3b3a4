#include "exporter_process.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "support/ports.h"
#include "support/test_paths.h"

namespace ovn_raft::testing {
HttpResult HttpGet(const std::string& url, const std::string& user_password, long timeout_ms) {
  return ovn_raft::HttpGet(url, {user_password, timeout_ms});
}

int FreePort() { return TakePorts(1); }

ExporterProcess::ExporterProcess(std::vector<std::string> args, int port) {
  port_ = port ? port : FreePort();
  args.insert(args.begin(), "--web.listen-address=127.0.0.1:" + std::to_string(port_));
  Start(std::move(args), [](int p) {
    return HttpGet("http://127.0.0.1:" + std::to_string(p) + "/healthz", "", 1000).status == 200;
  });
}

ExporterProcess::ExporterProcess(std::vector<std::string> args, int port,
                                 const std::function<bool(int port)>& ready) {
  port_ = port ? port : FreePort();
  Start(std::move(args), ready);
}

void ExporterProcess::Start(std::vector<std::string> args,
                            const std::function<bool(int port)>& ready) {
  args.insert(args.begin(), ExporterBinary());
  log_ = "/tmp/ovn-raft-exporter-test-" + std::to_string(port_) + ".log";
  pid_ = fork();
  if (pid_ == 0) {
    const int fd = open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 2);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  for (int i = 0; i < 100; ++i) {
    if (ready(port_)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  throw std::runtime_error("exporter did not come up; see " + log_);
}

ExporterProcess::~ExporterProcess() {
  if (pid_ > 0 && Terminate() < 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

std::string ExporterProcess::Url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

int ExporterProcess::Terminate(int timeout_ms) {
  if (pid_ <= 0) return -1;
  kill(pid_, SIGTERM);
  for (int waited = 0; waited < timeout_ms; waited += 10) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

}  // namespace ovn_raft::testing
