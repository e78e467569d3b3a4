// The web edge of the real binary, driven by real clients (curl) and real process starts:
// how the daemon starts when the kernel runs it in secure mode (file capabilities, setuid) or
// through the loader or with a read-only /proc, allowed sources written with host bits, SIGHUP,
// reloads on change, gzip. TLS session resumption and the dual-stack listener are in
// tls_integration_test.cc; attacks (floods, slow clients, password guessing) are
// scripts/abuse-benchmark.sh's, each once.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "raft_cluster.h"
#include "support/bcrypt.h"
#include "support/eventually.h"
#include "support/exporter_process.h"
#include "support/files.h"
#include "support/shell.h"
#include "support/temp_dir.h"
#include "support/test_paths.h"

namespace ovn_raft {
namespace {

using testing::ExporterProcess;
using testing::RaftCluster;

using testing::Bcrypt;
using testing::ReadFile;
using testing::Shell;
using testing::TempDir;

// The HTTP status curl saw ("000": none), from `source` (a 127.0.0.0/8 address) when given.
std::string CurlCode(const std::string& url, const std::string& args = "") {
  const std::string out =
      Shell("curl -s --max-time 5 -o /dev/null -w '%{http_code}' " + args + " '" + url + "'");
  return out.size() >= 3 ? out.substr(out.size() - 3) : out;
}

void WriteUsers(const std::string& path, const std::string& password) {
  testing::WriteFile(path, "basic_auth_users:\n  prom: " + Bcrypt(password) + "\n");
}

std::string Database(const RaftCluster& c) {
  return "--ovsdb.database=OVN_Northbound=" + c.Ctl(1, "nb") + "," + c.Sock(1, "nb");
}

// `127.0.0.5/8` is 127.0.0.0/8, as Go's tools read it: it admits 127.0.0.1.
TEST(WebEdgeIntegrationTest, AllowedSourcesWithHostBitsAdmitTheirNetwork) {
  RaftCluster c(1);
  const int port = testing::FreePort();
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/metrics";
  ExporterProcess e({"--web.listen-address=127.0.0.1:" + std::to_string(port), Database(c),
                     "--web.allowed-sources=127.0.0.5/8, 10.9.9.9/32"},
                    port, [&](int) { return CurlCode(url) != "000"; });
  EXPECT_EQ(CurlCode(url, "--interface 127.0.0.1"), "200");
  EXPECT_EQ(CurlCode(url, "--interface 127.0.0.9"), "200");
}

TEST(WebEdgeIntegrationTest, SighupReloadsTheWebConfigAndKeepsServing) {
  RaftCluster c(1);
  const TempDir dir("ovn-raft-sighup");
  const std::string config = dir / "web.yml";
  WriteUsers(config, "one");
  ExporterProcess e({Database(c), "--web.config.file=" + config});
  EXPECT_EQ(CurlCode(e.Url(), "-u prom:one"), "200");
  WriteUsers(config, "two");
  // No request in between: only the signal can make it read the file.
  ASSERT_EQ(kill(e.pid(), SIGHUP), 0);
  EXPECT_TRUE(testing::Eventually(
      [&] { return ReadFile(e.log_path()).find("web config reloaded") != std::string::npos; }, 5))
      << ReadFile(e.log_path());
  EXPECT_EQ(waitpid(e.pid(), nullptr, WNOHANG), 0) << "SIGHUP ended the process";
  EXPECT_EQ(CurlCode(e.Url(), "-u prom:two"), "200");
  EXPECT_EQ(CurlCode(e.Url(), "-u prom:one"), "401");
  EXPECT_EQ(e.Terminate(), 0);
}

// The binary started by `wrapper` (a shell prefix ending in the program), or a skip reason.
class SecureStartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root to set capabilities and setuid";
    temp_ = std::make_unique<TempDir>("ovn-raft-secure");
    dir_ = temp_->path();
    chmod(dir_.c_str(), 0755);
    binary_ = dir_ + "/ovn-raft-exporter";
    ASSERT_EQ(Shell("cp " + testing::ExporterBinary() + " " + binary_ + " && chmod 755 " + binary_),
              "");
  }
  void TearDown() override {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    temp_.reset();  // once the process that ran from it is gone
  }
  // Starts `prefix binary args` and returns how long until /metrics answered 200 (-1: not
  // within 5 s).
  double StartAndScrape(const std::string& prefix, const RaftCluster& c) {
    const int port = testing::FreePort();
    log_ = dir_ + "/exporter.log";
    const std::string command = "exec " + prefix + " " + binary_ +
                                " --web.listen-address=127.0.0.1:" + std::to_string(port) + " " +
                                Database(c) + " 2>" + log_;
    const auto start = std::chrono::steady_clock::now();
    pid_ = fork();
    if (pid_ == 0) {
      execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/metrics";
    while (std::chrono::steady_clock::now() - start < std::chrono::seconds(5)) {
      if (testing::HttpGet(url, "", 1000).status == 200) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
  }
  void ExpectServedWithinASecond(const std::string& how, double seconds) {
    std::printf("[ start ] %s: /metrics after %.3f s\n", how.c_str(), seconds);
    EXPECT_GE(seconds, 0) << how << ": no /metrics within 5 s; log:\n" << ReadFile(log_);
    EXPECT_LT(seconds, 1.0) << how;
    EXPECT_EQ(ReadFile(log_).find("level=error"), std::string::npos) << ReadFile(log_);
  }
  std::unique_ptr<TempDir> temp_;
  std::string dir_, binary_, log_;
  pid_t pid_ = -1;
};

// A file capability puts the process in secure mode (AT_SECURE), where glibc drops settings
// from the environment: the daemon must start and serve all the same.
// The classic way to let a non-root service read root-owned sockets.
TEST_F(SecureStartTest, WithAFileCapabilityAsNobody) {
  int code = 0;
  const std::string out = Shell("setcap cap_dac_override+ep " + binary_, &code);
  if (code != 0) GTEST_SKIP() << "setcap: " << out;
  RaftCluster c(1);
  ExpectServedWithinASecond(
      "setcap cap_dac_override+ep, uid 65534",
      StartAndScrape("setpriv --reuid=65534 --regid=65534 --clear-groups", c));
}

TEST_F(SecureStartTest, SetuidRootRunByNobody) {
  ASSERT_EQ(Shell("chown root:root " + binary_ + " && chmod 4755 " + binary_), "");
  RaftCluster c(1);
  ExpectServedWithinASecond(
      "setuid root, run by uid 65534",
      StartAndScrape("setpriv --reuid=65534 --regid=65534 --clear-groups", c));
}

TEST_F(SecureStartTest, ThroughTheLoader) {
  const std::string loader = Shell(
      "ls /lib64/ld-linux-x86-64.so.2 /lib/ld-linux-aarch64.so.1 "
      "2>/dev/null | head -1 | tr -d '\\n'");
  if (loader.empty()) GTEST_SKIP() << "no known dynamic loader";
  RaftCluster c(1);
  ExpectServedWithinASecond("through " + loader, StartAndScrape(loader, c));
}

TEST_F(SecureStartTest, WithAReadOnlyProc) {
  int code = 0;
  const std::string out = Shell("unshare --mount sh -c 'mount -o remount,ro /proc'", &code);
  if (code != 0) GTEST_SKIP() << "cannot remount /proc here: " << out;
  RaftCluster c(1);
  ExpectServedWithinASecond(
      "read-only /proc",
      StartAndScrape("unshare --mount sh -c 'mount -o remount,ro /proc && exec \"$0\" \"$@\"'", c));
}

// Gzip when asked (Prometheus asks on every scrape): a whole page that inflates back.
TEST(WebEdgeIntegrationTest, GzipWhenAsked) {
  RaftCluster c(1);
  ExporterProcess e({Database(c)});
  const std::string head =
      Shell("curl -s --max-time 5 -D - -o /dev/null -H 'Accept-Encoding: gzip' '" + e.Url() + "'");
  EXPECT_NE(head.find("Content-Encoding: gzip"), std::string::npos) << head;
  EXPECT_NE(head.find("Vary: Accept-Encoding"), std::string::npos) << head;
  const std::string page =
      Shell("curl -s --max-time 5 -H 'Accept-Encoding: gzip' '" + e.Url() + "' | gunzip");
  EXPECT_NE(page.find("ovn_raft_up{db=\"OVN_Northbound\"} 1\n"), std::string::npos) << page;
}

// The web config is re-read when it changes (a rotated Secret), as exporter-toolkit does; a
// broken file keeps the last good users.
TEST(WebEdgeIntegrationTest, WebConfigReloadsOnChangeAndKeepsTheLastGoodOne) {
  RaftCluster c(1);
  const TempDir dir("ovn-raft-reload");
  const std::string web = dir / "web.yml";
  WriteUsers(web, "first");
  ExporterProcess e({Database(c), "--web.config.file=" + web});
  EXPECT_EQ(CurlCode(e.Url(), "-u prom:first"), "200");
  WriteUsers(web, "second");
  EXPECT_TRUE(testing::Eventually([&] { return CurlCode(e.Url(), "-u prom:first") == "401"; }, 5));
  EXPECT_EQ(CurlCode(e.Url(), "-u prom:second"), "200");
  // A cost above 12 is refused on reload as at start, with the command that makes a usable hash.
  std::ofstream(web) << "basic_auth_users:\n  prom: $2b$13$" << std::string(53, 'a') << "\n";
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_EQ(CurlCode(e.Url(), "-u prom:second"), "200");  // the broken file is not taken
  const std::string log = ReadFile(e.log_path());
  EXPECT_NE(log.find("web config reloaded"), std::string::npos) << log;
  EXPECT_NE(log.find("web config reload failed, keeping the last good one"), std::string::npos)
      << log;
  EXPECT_NE(log.find("htpasswd -nBC 12 prom"), std::string::npos) << log;
}

// exporter-toolkit's rate_limit: one bucket for every request, full at start; past it 429 with
// Retry-After, a token back per interval; /healthz (the liveness probe) is not counted.
TEST(WebEdgeIntegrationTest, RateLimitAnswers429PastTheBurst) {
  RaftCluster c(1);
  const TempDir dir("ovn-raft-rate");
  const std::string web = dir / "web.yml";
  std::ofstream(web) << "rate_limit:\n  interval: 3s\n  burst: 3\n";
  ExporterProcess e({Database(c), "--web.config.file=" + web});
  std::string urls;
  for (int i = 0; i < 6; ++i) urls += " -o /dev/null '" + e.Url() + "'";
  // One curl, six requests one after another.
  EXPECT_EQ(Shell("curl -s --max-time 10 -w '%{http_code} '" + urls), "200 200 200 429 429 429 ");
  EXPECT_EQ(CurlCode(e.Url("/healthz")), "200");
  const std::string head = Shell("curl -s --max-time 5 -D - -o /dev/null '" + e.Url() + "'");
  EXPECT_NE(head.find("HTTP/1.1 429"), std::string::npos) << head;
  EXPECT_NE(head.find("Retry-After: 3"), std::string::npos) << head;
  std::this_thread::sleep_for(std::chrono::milliseconds(3200));  // one token back
  const std::string page = Shell("curl -s --max-time 5 '" + e.Url() + "'");
  EXPECT_NE(page.find("ovn_raft_exporter_http_rejections_total{reason=\"rate_limited\"} 4\n"),
            std::string::npos)
      << page;
  EXPECT_EQ(CurlCode(e.Url()), "429");
}

// The daemon never runs itself again to change its environment (glibc drops such settings for
// a secure exec, and the loop never ended): what it was started with is what it runs with.
TEST(WebEdgeIntegrationTest, TheDaemonKeepsTheEnvironmentItWasGiven) {
  unsetenv("GLIBC_TUNABLES");
  RaftCluster c(1);
  ExporterProcess e({Database(c)});
  EXPECT_EQ(e.Get().status, 200);
  std::string env = ReadFile("/proc/" + std::to_string(e.pid()) + "/environ");
  for (char& ch : env) ch = ch == '\0' ? '\n' : ch;
  EXPECT_EQ(env.find("GLIBC_TUNABLES="), std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
