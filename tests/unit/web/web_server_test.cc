// The web edge through its one entry point, as an exporter uses it: options and routes in, a
// real server on loopback, refusals out.
#include "web/web_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "support/bcrypt.h"
#include "support/loopback.h"
#include "support/shell.h"
#include "support/temp_dir.h"

namespace ovn_raft {
namespace {

WebServerOptions Loopback(int max_connections = 8) {
  WebServerOptions o;
  const auto address = ParseListenAddress("127.0.0.1:0");
  o.listen_addresses = {address.value()};
  o.max_connections = max_connections;
  o.request_timeout = std::chrono::seconds(20);
  o.open_paths = {"/healthz"};
  return o;
}

std::string Status(int port, const std::string& path, const std::string& user = "") {
  return testing::Shell("curl -s -o /dev/null --max-time 10 -w '%{http_code}' " +
                        (user.empty() ? "" : "-u " + user + " ") +
                        "http://127.0.0.1:" + std::to_string(port) + path);
}

TEST(WebServerTest, ServesTheRoutesBehindTheWebConfigAndCountsRefusals) {
  testing::TempDir dir;
  const std::string config = dir / "web.yml";
  std::ofstream(config) << "basic_auth_users:\n  prom: " << testing::Bcrypt("pw", 4) << "\n";
  WebServerOptions o = Loopback();
  o.config_file = config;
  auto prepared = WebServer::Prepare(o);
  ASSERT_TRUE(prepared.ok()) << prepared.error().error;
  WebServer& web = *prepared.value();
  int reached = 0;
  ASSERT_FALSE(web.Start([&](const HttpRequest&) {
                    ++reached;
                    return HttpResponse{200, "text/plain", "ok\n", {}};
                  })
                   .has_value());
  EXPECT_GT(web.port(), 0);
  EXPECT_TRUE(web.auth_on());
  EXPECT_FALSE(web.tls_on());
  EXPECT_EQ(Status(web.port(), "/metrics"), "401");
  EXPECT_EQ(Status(web.port(), "/metrics", "prom:bad"), "401");
  EXPECT_EQ(Status(web.port(), "/metrics", "prom:pw"), "200");
  EXPECT_EQ(Status(web.port(), "/healthz"), "200");
  EXPECT_EQ(reached, 2);
  EXPECT_EQ(web.refusals().auth_failed, 2u);
  EXPECT_TRUE(web.Reload());
  EXPECT_EQ(web.Drain(std::chrono::seconds(1)), 0);
}

TEST(WebServerTest, AnInvalidWebConfigFailsWithExitCode2) {
  testing::TempDir dir;
  WebServerOptions o = Loopback();
  o.config_file = dir.path();  // a directory
  auto prepared = WebServer::Prepare(o);
  ASSERT_FALSE(prepared.ok());
  EXPECT_EQ(prepared.error().exit_code, 2);
  EXPECT_EQ(prepared.error().message, "invalid web config");
  EXPECT_NE(prepared.error().error.find("is a directory"), std::string::npos);
}

TEST(WebServerTest, WithoutAWebConfigEveryoneIsServedAndThereIsNothingToReload) {
  auto prepared = WebServer::Prepare(Loopback());
  ASSERT_TRUE(prepared.ok());
  WebServer& web = *prepared.value();
  ASSERT_FALSE(web.Start([](const HttpRequest&) {
                    return HttpResponse{200, "text/plain", "ok\n", {}};
                  })
                   .has_value());
  EXPECT_FALSE(web.auth_on());
  EXPECT_EQ(Status(web.port(), "/metrics"), "200");
  EXPECT_FALSE(web.Reload());
}

// Where RunWork runs its task: on the thread that asks, unless that is a worker let in from
// the reserve (every core worker held by an idle connection here), which hands it to the web
// edge's pool.
TEST(WebServerTest, WorkRunsOnTheCallerUnlessAReserveWorkerAsks) {
  auto prepared = WebServer::Prepare(Loopback(8));
  ASSERT_TRUE(prepared.ok());
  WebServer& web = *prepared.value();
  std::mutex mu;
  std::vector<bool> same_thread;  // guarded by mu
  ASSERT_FALSE(web.Start([&](const HttpRequest&) {
                    const auto asked = std::this_thread::get_id();
                    std::thread::id ran;
                    web.RunWork([&] { ran = std::this_thread::get_id(); });
                    const std::lock_guard<std::mutex> lock(mu);
                    same_thread.push_back(ran == asked);
                    return HttpResponse{200, "text/plain", "ok\n", {}};
                  })
                   .has_value());
  std::thread::id ran;
  web.RunWork([&] { ran = std::this_thread::get_id(); });
  EXPECT_EQ(ran, std::this_thread::get_id());  // not a worker of the web edge

  ASSERT_EQ(Status(web.port(), "/"), "200");  // a core worker
  std::vector<int> held;
  for (int i = 0; i < 7; ++i) {  // every core worker, and all the reserve but one
    const int fd = testing::ConnectLoopback(web.port());
    ASSERT_GE(fd, 0);
    held.push_back(fd);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // each has a worker by now
  // Held: 4 core, 3 of the reserve; the one left free is a reserve worker.
  const std::string status = Status(web.port(), "/");
  for (int fd : held) close(fd);
  ASSERT_EQ(status, "200");
  const std::lock_guard<std::mutex> lock(mu);
  ASSERT_EQ(same_thread.size(), 2u);
  EXPECT_TRUE(same_thread[0]);
  EXPECT_FALSE(same_thread[1]);
}

}  // namespace
}  // namespace ovn_raft
