#include "exporter/endpoints.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <chrono>
#include <thread>

#include "parsers/cluster_status_parser.h"
#include "support/exposition.h"
#include "support/fixtures.h"

namespace ovn_raft {
namespace {

Snapshot OneLeader() {
  Snapshot s;
  s.taken_at = std::chrono::system_clock::now();
  DatabaseReading r;
  r.target = {"OVN_Northbound", "/a.ctl", "/a.sock", ""};
  r.status = ParseClusterStatus(testing::Fixture("ovs-3.1.0/leader.txt"));
  s.databases.push_back(r);
  DatabaseReading down;
  down.target = {"OVN_Southbound", "/b.ctl", "", ""};
  down.status_error = Error{ErrorCode::kTimeout, "no complete reply"};
  s.databases.push_back(down);
  return s;
}

// The defaults, as a flagless start makes them.
Config Defaults() {
  return *ParseConfig({}, [](const std::string&) { return std::nullopt; }).settings;
}

struct Fixture {
  ReadCoordinator coordinator{
      [](RoundProgress&) { return std::make_shared<const Snapshot>(OneLeader()); },
      std::chrono::milliseconds(0)};
  Config config = Defaults();
};

TEST(EndpointsTest, MetricsStatusReadyLanding) {
  Fixture f;
  Endpoints e(f.config, f.coordinator);
  const auto metrics = e.Handle({"GET", "/metrics", "", "", "", ""});
  EXPECT_EQ(metrics.status, 200);
  EXPECT_NE(metrics.content_type.find("version=0.0.4"), std::string::npos);
  const testing::Exposition m(metrics.body);
  EXPECT_EQ(m.Value("ovn_raft_up", {{"db", "OVN_Northbound"}}), 1);
  EXPECT_EQ(m.Value("ovn_raft_up", {{"db", "OVN_Southbound"}}), 0);
  EXPECT_EQ(m.Value("ovn_raft_exporter_build_info"), 1);
  EXPECT_TRUE(m.Value("process_resident_memory_bytes").has_value());

  const auto status = e.Handle({"GET", "/status", "", "", "", ""});
  rapidjson::Document d;
  d.Parse(status.body.c_str());
  ASSERT_FALSE(d.HasParseError()) << status.body;
  EXPECT_STREQ(d["databases"][0]["status"]["role"].GetString(), "leader");
  EXPECT_STREQ(d["databases"][1]["error"]["reason"].GetString(), "timeout");

  const auto ready = e.Handle({"GET", "/readyz", "", "", "", ""});
  EXPECT_EQ(ready.status, 503);
  EXPECT_NE(ready.body.find("OVN_Southbound"), std::string::npos);
  EXPECT_EQ(e.Handle({"GET", "/", "", "", "", ""}).status, 200);
  EXPECT_EQ(e.Handle({"GET", "/healthz", "", "", "", ""}).status, 200);
  EXPECT_EQ(e.Handle({"GET", "/nope", "", "", "", ""}).status, 404);
}

// The refusals the web edge counted are the page's, by reason (none without a web edge).
TEST(EndpointsTest, ThePageCountsTheWebEdgesRefusals) {
  Fixture f;
  Endpoints e(f.config, f.coordinator);
  const testing::Exposition m(e.Handle({"GET", "/metrics", "", "", "", ""}).body);
  for (const char* reason : {"auth_failed", "auth_throttled", "source_busy", "rate_limited"}) {
    EXPECT_EQ(m.Value("ovn_raft_exporter_http_rejections_total", {{"reason", reason}}), 0)
        << reason;
  }
  EXPECT_EQ(Endpoints::OpenPaths(), std::vector<std::string>{"/healthz"});
}

// A page within the scraper's deadline (X-Prometheus-Scrape-Timeout-Seconds, less its margin):
// the database read by then is served, the one still being read is up 0 with the reason.
TEST(EndpointsTest, APageWithinTheScrapersDeadlineServesWhatWasRead) {
  const auto hung = std::chrono::milliseconds(2500);  // past both scrapes
  ReadCoordinator coordinator(
      [&](RoundProgress& progress) {
        const Snapshot s = OneLeader();
        progress.Begin(s.taken_at, {s.databases[0].target, s.databases[1].target});
        progress.Finish(0, DatabaseReading(s.databases[0]));
        std::this_thread::sleep_for(hung);
        progress.Finish(1, DatabaseReading(s.databases[1]));
        return progress.End();
      },
      std::chrono::milliseconds(0), Defaults().timeout + std::chrono::seconds(1));
  Endpoints e(Defaults(), coordinator);
  for (int i = 1; i <= 2; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const auto page = e.Handle({"GET", "/metrics", "", "1", "", ""});
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(page.status, 200);
    EXPECT_LT(took, std::chrono::milliseconds(1000));
    EXPECT_GE(took, std::chrono::milliseconds(700));  // waited for the read, less the margin
    const testing::Exposition m(page.body);
    EXPECT_EQ(m.Value("ovn_raft_up", {{"db", "OVN_Northbound"}}), 1);
    EXPECT_EQ(m.Value("ovn_raft_up", {{"db", "OVN_Southbound"}}), 0);
    EXPECT_EQ(m.Value("ovn_raft_exporter_errors_total",
                      {{"db", "OVN_Southbound"}, {"reason", "scrape_timeout"}}),
              i);
  }
}

}  // namespace
}  // namespace ovn_raft
