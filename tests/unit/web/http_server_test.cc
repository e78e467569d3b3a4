// A real HttpServer on loopback against one address's flood of connections that send nothing:
// a request from another address, or from the flooding address itself, is still answered at
// once, over TCP and over TLS.
#include "web/http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "support/shell.h"
#include "support/temp_dir.h"
#include "web/accept_filter.h"
#include "web/listen_address.h"
#include "web/tls_context.h"

namespace ovn_raft {
namespace {

// A connection from `source` to 127.0.0.1:`port` that sends nothing, not waited for (a server
// that no longer accepts would keep connect() in SYN retries); -1 when it cannot be made.
int IdleFrom(const char* source, int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  sockaddr_in from{};
  from.sin_family = AF_INET;
  inet_pton(AF_INET, source, &from.sin_addr);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<std::uint16_t>(port));
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof(from)) != 0 ||
      (connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof(to)) != 0 && errno != EINPROGRESS)) {
    close(fd);
    return -1;
  }
  return fd;
}

// 32 workers, a request timeout that outlasts the test: an idle connection that reaches a
// worker holds it for the whole test.
class IdleFloodTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!AcceptFiltersLinked()) GTEST_SKIP() << "built with the system's shared civetweb";
  }
  void Serve() {
    HttpServerOptions o;
    o.threads = 32;
    o.request_timeout = std::chrono::seconds(30);
    o.tls = tls_.get();
    const auto loopback = ParseListenAddress("127.0.0.1:0");
    ASSERT_TRUE(loopback.ok());
    ASSERT_FALSE(server_.Start({loopback.value()}, o).has_value());
  }
  void MakeTls() {
    ASSERT_EQ(testing::Shell("cd " + dir_.path() +
                             " && openssl req -x509 -newkey ec -pkeyopt "
                             "ec_paramgen_curve:P-256 -nodes -keyout s.key -out s.crt -days 1 "
                             "-subj /CN=s >/dev/null 2>&1; test -s s.crt && echo made"),
              "made\n");
    TlsServerConfig config;
    config.cert_file = dir_.path() + "/s.crt";
    config.key_file = dir_.path() + "/s.key";
    auto tls = TlsContext::Create(config);
    ASSERT_TRUE(tls.ok()) << tls.error().message;
    tls_ = std::move(tls).value();
  }
  void Flood(const char* source, int n) {
    for (int i = 0; i < n; ++i) {
      const int fd = IdleFrom(source, server_.port());
      if (fd >= 0) held_.push_back(fd);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // connected by now
  }
  // curl from `source`: "CODE SECONDS".
  std::string Request(const std::string& scheme, const std::string& source) {
    return testing::Shell("curl -sk -o /dev/null --max-time 10 --interface " + source +
                          " -w '%{http_code} %{time_total}' " + scheme +
                          "://127.0.0.1:" + std::to_string(server_.port()) + "/");
  }
  void Expect200Within1s(const std::string& answer) {
    ASSERT_EQ(answer.substr(0, 4), "200 ") << answer;
    EXPECT_LT(std::atof(answer.c_str() + 4), 1.0) << answer;
  }
  void TearDown() override {
    for (int fd : held_) close(fd);
  }
  testing::TempDir dir_{"ovn-raft-idle-flood"};
  std::unique_ptr<TlsContext> tls_;  // outlives the server that uses it
  HttpServer server_{[](const HttpRequest&) {
    return HttpResponse{200, "text/plain", "ok\n", {}};
  }};
  std::vector<int> held_;
};

TEST_F(IdleFloodTest, AnotherAddressIsAnsweredAtOnceOverTcp) {
  Serve();
  Flood("127.0.0.9", 1500);
  const std::string answer = Request("http", "127.0.0.1");
  std::printf("[ flood ] 1500 idle connections from 127.0.0.9, then 127.0.0.1: %s\n",
              answer.c_str());
  Expect200Within1s(answer);
}

TEST_F(IdleFloodTest, AnotherAddressIsAnsweredAtOnceOverTls) {
  if (!TlsContext::Available()) GTEST_SKIP() << "built with the system's civetweb: no TLS";
  MakeTls();
  Serve();
  Flood("127.0.0.9", 1500);
  const std::string answer = Request("https", "127.0.0.1");
  std::printf(
      "[ flood ] 1500 TLS connections without a ClientHello from 127.0.0.9, then "
      "127.0.0.1: %s\n",
      answer.c_str());
  Expect200Within1s(answer);
}

// The flood's own address (a proxy in front makes every client one address): its new
// connection takes the place of an idle one.
TEST_F(IdleFloodTest, TheFloodingAddressItselfIsAnsweredAtOnce) {
  Serve();
  Flood("127.0.0.9", 1500);
  Expect200Within1s(Request("http", "127.0.0.9"));
}

}  // namespace
}  // namespace ovn_raft
