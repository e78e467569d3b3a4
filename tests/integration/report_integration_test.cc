// ovn-raft-report against the real exporters of a real 3-member cluster, with one lying URL
// beside them (a fake: a real exporter cannot be made to lie), and with a member cut off by
// the firewall. What a URL says counts for its own member only; a kick rests on the leader's
// own word; every member that needs attention gets a line of its own. A standalone database
// (Kube-OVN's single mode) and a relay are shown as what they are, never as members down.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "raft_cluster.h"
#include "support/exporter_process.h"
#include "support/fake_http_server.h"
#include "support/report_process.h"
#include "support/shell.h"
#include "support/temp_dir.h"
#include "support/test_paths.h"

namespace ovn_raft {
namespace {

using testing::ExporterProcess;
using testing::FakeHttpServer;
using testing::RaftCluster;
using testing::ReportRun;
using testing::RunReport;

// A real cluster and each member's real exporter (NB and SB).
class ThreeMembers {
 public:
  ThreeMembers() : cluster_(3) {
    for (int m = 1; m <= 3; ++m) {
      std::vector<std::string> args{"--ovsdb.min-interval=0"};
      for (const std::string db : {"nb", "sb"}) {
        args.push_back("--ovsdb.database=" + RaftCluster::DbName(db) + "=" + cluster_.Ctl(m, db) +
                       "," + cluster_.Sock(m, db));
      }
      exporters_.push_back(std::make_unique<ExporterProcess>(args));
    }
  }
  RaftCluster& cluster() { return cluster_; }
  std::vector<std::string> Urls() const {
    std::vector<std::string> urls;
    for (const auto& e : exporters_) urls.push_back(e->Url(""));
    return urls;
  }
  std::string Address(int m, const std::string& db) const {
    return "tcp:127.0.0." + std::to_string(m) + ":" + std::to_string(cluster_.port(db));
  }
  // The report with `extra` URLs after the members' own, once it passes `done` (or the last
  // try after `seconds`).
  ReportRun Report(const std::vector<std::string>& extra,
                   const std::function<bool(const ReportRun&)>& done, int seconds = 60) {
    std::vector<std::string> args{"--cluster.expected-members=3"};
    for (const auto& u : Urls()) args.push_back(u);
    args.insert(args.end(), extra.begin(), extra.end());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    for (;;) {
      auto r = RunReport(args);
      if (done(r) || std::chrono::steady_clock::now() > deadline) return r;
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
  }

 private:
  RaftCluster cluster_;
  std::vector<std::unique_ptr<ExporterProcess>> exporters_;
};

bool Healthy(const ReportRun& r) { return r.exit == 0; }
bool Anything(const ReportRun&) { return true; }

// A follower of NB: the healthy member a liar names.
int NbFollower(const RaftCluster& c) { return c.Leader("nb") == 1 ? 2 : 1; }

std::string Entry(const std::string& cid, const std::string& sid, const std::string& address,
                  const std::string& role, const std::string& leader, const std::string& servers) {
  return R"({"name":"OVN_Northbound","ctl":"/var/run/ovn/ovnnb_db.ctl","up":true,"status":{)"
         R"("cluster_id":")" +
         cid + R"(","server_id":")" + sid + R"(","address":{"raw":")" + address +
         R"("},"status":"cluster_member","role":")" + role + R"(","leader":")" + leader +
         R"(","term":9,"election_timer_ms":1000,"servers":[)" + servers + "]}}";
}
std::string Server(const std::string& sid, const std::string& address, long ago = -1) {
  return R"({"server_id":")" + sid + R"(","address":{"raw":")" + address + "\"}" +
         (ago < 0 ? "" : R"(,"last_msg_ms_ago":)" + std::to_string(ago)) + "}";
}

// The NB cluster ID the members' exporters read.
std::string NbClusterId(const std::string& url) {
  const auto body = testing::HttpGet(url + "/status").body;
  std::smatch m;
  const auto nb = body.find("\"name\":\"OVN_Northbound\"");
  const std::string rest = nb == std::string::npos ? "" : body.substr(nb);
  return std::regex_search(rest, m, std::regex(R"re("cluster_id":"([0-9a-f]+)")re")) ? m.str(1)
                                                                                     : "";
}

void ExpectNoKick(const ReportRun& r) {
  EXPECT_EQ(r.out.find("cluster/kick"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("ovs-appctl"), std::string::npos) << r.out;
}

// One URL whose /status holds a single entry under another cluster ID, a leader that "has
// not heard" a healthy follower for 16 minutes and shares its host: without the trust model the
// report advised `cluster/kick` of the healthy follower. Now: no kick, the URL named, exit 3.
TEST(ReportIntegrationTest, OneLyingUrlUnderAnotherClusterAdvisesNoKick) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  ThreeMembers t;
  const auto healthy = t.Report({}, Healthy);
  ASSERT_EQ(healthy.exit, 0) << healthy.out;
  const int h = NbFollower(t.cluster());
  const std::string id = t.cluster().ServerId(h, "nb");
  ASSERT_EQ(id.size(), 4u);
  const std::string liar_address = "tcp:127.0.0." + std::to_string(h) + ":1";
  FakeHttpServer liar(R"({"taken_at":1,"databases":[)" +
                      Entry("feed", "d00d", liar_address, "leader", "self",
                            Server("d00d", liar_address) + "," +
                                Server(id, t.Address(h, "nb"), 987654) + "," +
                                Server("e1e1", "tcp:127.0.0.1:2", 10) + "," +
                                Server("e2e2", "tcp:127.0.0.2:2", 10)) +
                      "]}");
  const auto r = t.Report({liar.Url()}, Anything, 0);
  SCOPED_TRACE(r.out);
  std::printf("[ attack   ] one lying URL naming %s stale: exit %d, %s\n", id.c_str(), r.exit,
              r.out.find("cluster/kick") == std::string::npos ? "no kick" : "KICK ADVISED");
  ExpectNoKick(r);
  EXPECT_EQ(r.exit, 3);
  EXPECT_NE(r.out.find("UNTRUSTED: " + liar.Url() + ": it reports cluster feed, not "),
            std::string::npos);
  // The honest members' analysis stands as it was.
  EXPECT_NE(r.out.find("3 reporting; views all agree"), std::string::npos);
  EXPECT_EQ(r.out.find("needs attention"), std::string::npos);
}

// One URL listing 16 members of NB (the honest cluster's ID, a view of their own) is one
// untrusted URL and counts for nothing: its 16 members cannot outvote the 3 real ones.
TEST(ReportIntegrationTest, AUrlListingSixteenMembersIsOneUntrustedUrl) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  ThreeMembers t;
  ASSERT_EQ(t.Report({}, Healthy).exit, 0);
  const std::string cid = NbClusterId(t.Urls()[0]);
  ASSERT_FALSE(cid.empty());
  std::string view, entries;
  for (int i = 0; i < 4; ++i) {
    view += std::string(i ? "," : "") +
            Server("f" + std::to_string(i), "tcp:127.0.0.9:" + std::to_string(100 + i), 10);
  }
  for (int i = 0; i < 16; ++i) {
    const std::string sid = "f" + std::to_string(i);
    entries +=
        std::string(i ? "," : "") + Entry(cid, sid, "tcp:127.0.0.9:" + std::to_string(100 + i),
                                          i == 0 ? "leader" : "follower", "f0", view);
  }
  FakeHttpServer liar(R"({"taken_at":1,"databases":[)" + entries + "]}");
  const auto r = t.Report({liar.Url()}, Anything, 0);
  SCOPED_TRACE(r.out);
  std::printf("[ attack   ] one URL listing 16 members: exit %d, %s\n", r.exit,
              r.out.find("minority:") == std::string::npos ? "the real members agree"
                                                           : "the real members are the MINORITY");
  ExpectNoKick(r);
  EXPECT_EQ(r.exit, 3);
  EXPECT_NE(r.out.find("UNTRUSTED: " + liar.Url() + ": it lists 16 entries for OVN_Northbound"),
            std::string::npos);
  EXPECT_EQ(r.out.find("minority:"), std::string::npos);
  EXPECT_NE(r.out.find("cluster " + cid + ": 3 reporting; views all agree"), std::string::npos);
}

// A /status whose entry has empty cluster and server IDs: once reported healthy (exit 0).
TEST(ReportIntegrationTest, AStatusWithEmptyIdsIsNeverHealthy) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  FakeHttpServer empty(R"({"databases":[)" + Entry("", "", "", "leader", "self", "") + "]}");
  const auto alone = RunReport({empty.Url()});
  std::printf("[ attack   ] a /status with empty IDs: exit %d\n", alone.exit);
  EXPECT_EQ(alone.exit, 3) << alone.out;
  EXPECT_NE(alone.out.find("UNTRUSTED: " + empty.Url() + ": its entry has no server ID"),
            std::string::npos)
      << alone.out;
}

// A password in a URL is never shown, not even of an exporter that cannot be reached.
TEST(ReportIntegrationTest, APasswordInAUrlIsNeverPrinted) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  const auto r = RunReport({"--web.timeout=500ms", "http://prom:hunter2@127.0.0.1:1",
                            "http://prom:hunter2@127.0.0.1:1"});
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.out.find("hunter2"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("hunter2"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("http://xxxxx@127.0.0.1:1: unreachable"), std::string::npos) << r.out;
}

// A follower cut off by the firewall: named on an attention line of its own, with what it is,
// and by the verdict as what puts the quorum at risk.
TEST(ReportIntegrationTest, ACutOffMemberIsNamedOnItsOwnAttentionLine) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  ThreeMembers t;
  ASSERT_EQ(t.Report({}, Healthy).exit, 0);
  const int m = NbFollower(t.cluster());
  const std::string id = t.cluster().ServerId(m, "nb");
  ASSERT_EQ(id.size(), 4u);
  t.cluster().Cut(m);
  const std::string needle = "    attention: " + id + " at " + t.Address(m, "nb") + ": ";
  const auto r = t.Report(
      {}, [&](const ReportRun& run) { return run.out.find(needle) != std::string::npos; }, 60);
  t.cluster().Heal();
  SCOPED_TRACE(r.out);
  const auto at = r.out.find(needle);
  ASSERT_NE(at, std::string::npos);
  const std::string line = r.out.substr(at + 4, r.out.find('\n', at) - at - 4);
  std::printf("[ scenario ] member %d cut off: %s\n", m, line.c_str());
  EXPECT_EQ(r.exit, 1);
  EXPECT_TRUE(std::regex_search(line, std::regex("disconnected|campaigning|unheard|no living")))
      << line;
  EXPECT_NE(r.out.find("at risk from " + id + " (not alive)"), std::string::npos);
  // Its line, and no healthy member's.
  for (int other = 1; other <= 3; ++other) {
    if (other == m) continue;
    const std::string healthy = t.cluster().ServerId(other, "nb");
    EXPECT_EQ(r.out.find("    attention: " + healthy + " "), std::string::npos) << healthy;
  }
}

// A detached ovsdb-server serving a standalone database made by `ovsdb-tool create` on
// DIR/NAME.ctl and DIR/NAME.sock; killed at the end.
class StandaloneServer {
 public:
  StandaloneServer(const testing::TempDir& dir, const std::string& name, const std::string& schema)
      : pidfile_(dir / (name + ".pid")),
        ctl_(dir / (name + ".ctl")),
        sock_(dir / (name + ".sock")) {
    const std::string ovs = "${OVS_BIN_DIR:+$OVS_BIN_DIR/}";
    const std::string db = dir / (name + ".db");
    int exit = 0;
    const std::string out = testing::Shell(
        ovs + "ovsdb-tool create " + db + " " + schema + " && " + ovs +
            "ovsdb-server --detach --no-chdir --pidfile=" + pidfile_ + " --unixctl=" + ctl_ +
            " --remote=punix:" + sock_ + " --log-file=" + (dir / (name + ".log")) + " " + db,
        &exit);
    if (exit != 0) ADD_FAILURE() << "ovsdb-server " << db << ": " << out;
  }
  ~StandaloneServer() { testing::Shell("kill $(cat " + pidfile_ + ") 2>/dev/null"); }
  StandaloneServer(const StandaloneServer&) = delete;
  StandaloneServer& operator=(const StandaloneServer&) = delete;

  std::string Flag(const std::string& db) const {
    return "--ovsdb.database=" + db + "=" + ctl_ + "," + sock_;
  }

 private:
  std::string pidfile_, ctl_, sock_;
};

// Kube-OVN's single mode: NB and SB standalone. Once printed as "? URL: down" and exit 1; now
// each is a line saying what it is, no cluster analysis, and exit 0.
TEST(ReportIntegrationTest, StandaloneDatabasesAreNoClusterAndHealthy) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  const testing::TempDir dir("ovn-raft-report-standalone");
  const StandaloneServer nb(dir, "nb", "/usr/share/ovn/ovn-nb.ovsschema");
  const StandaloneServer sb(dir, "sb", "/usr/share/ovn/ovn-sb.ovsschema");
  ExporterProcess e(
      {nb.Flag("OVN_Northbound"), sb.Flag("OVN_Southbound"), "--ovsdb.min-interval=0"});
  const std::string url = e.Url("");
  const auto r = RunReport({url});
  SCOPED_TRACE(r.out);
  std::printf("[ scenario ] standalone NB and SB: exit %d\n%s", r.exit, r.out.c_str());
  EXPECT_EQ(r.exit, 0);
  for (const std::string db : {"OVN_Northbound", "OVN_Southbound"}) {
    EXPECT_NE(r.out.find(db + "\n  =      " + url + ": standalone database, no Raft cluster\n"),
              std::string::npos)
        << db;
  }
  EXPECT_EQ(r.out.find("down"), std::string::npos);
  EXPECT_EQ(r.out.find("needs attention"), std::string::npos);
  EXPECT_EQ(r.out.find("size checks off"), std::string::npos);
  EXPECT_EQ(r.out.find("verdict"), std::string::npos);
}

// A relay cut off from its source serves stale data and forwards no writes: it needs attention
// (exit 1); a connected one does not. Relays are served by a fake: the real one, in front of a
// real cluster, is read in database_model_integration_test.cc.
TEST(ReportIntegrationTest, ARelayNeedsAttentionOnlyWhenCutOffFromItsSource) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  const auto relay = [](bool connected) {
    return std::string(R"({"databases":[{"name":"OVN_Southbound","up":false,"model":"relay",)") +
           R"("server":{"model":"relay","connected":)" + (connected ? "true" : "false") +
           R"(,"leader":false}}]})";
  };
  FakeHttpServer up(relay(true));
  const auto fine = RunReport({up.Url()});
  EXPECT_EQ(fine.exit, 0) << fine.out;
  EXPECT_NE(fine.out.find(up.Url() + ": relay database, connected to its source"),
            std::string::npos)
      << fine.out;
  FakeHttpServer cut(relay(false));
  const auto r = RunReport({cut.Url()});
  std::printf("[ scenario ] a relay cut off from its source: exit %d\n%s", r.exit, r.out.c_str());
  EXPECT_EQ(r.exit, 1) << r.out;
  EXPECT_NE(r.out.find(cut.Url() + ": relay database, NOT connected to its source"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("needs attention: " + cut.Url() + " serves it as a relay not connected"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace ovn_raft
