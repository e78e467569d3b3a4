// ovn-raft-report against the real exporters of a real 3-member cluster, each listening on its
// member's host as a sidecar does, with lying URLs beside them (fakes: a real exporter cannot
// be made to lie), with a member cut off by the firewall, and with a leader whose disk syncs
// slowly. What a URL says counts for its own member only; a kick rests on the word of URLs
// bound to their members, with none unread or untrusted; every member that needs attention
// gets a line of its own, the leader's own disk included. A standalone database (Kube-OVN's
// single mode) and a relay are shown as what they are, never as members down.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

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
#include "support/files.h"
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

// A real cluster and each member's real exporter (NB and SB), member N's on 127.0.0.N (its
// Raft address host) unless `on_own_host` is false (then all on 127.0.0.1).
class ThreeMembers {
 public:
  explicit ThreeMembers(bool on_own_host = true) : cluster_(3) {
    for (int m = 1; m <= 3; ++m) {
      std::vector<std::string> args{"--ovsdb.min-interval=0"};
      for (const std::string db : {"nb", "sb"}) {
        args.push_back("--ovsdb.database=" + RaftCluster::DbName(db) + "=" + cluster_.Ctl(m, db) +
                       "," + cluster_.Sock(m, db));
      }
      const std::string host = on_own_host ? "127.0.0." + std::to_string(m) : "127.0.0.1";
      const int port = testing::FreePort();
      args.push_back("--web.listen-address=" + host + ":" + std::to_string(port));
      urls_.push_back("http://" + host + ":" + std::to_string(port));
      const std::string url = urls_.back();
      exporters_.push_back(std::make_unique<ExporterProcess>(args, port, [url](int) {
        return testing::HttpGet(url + "/healthz", "", 1000).status == 200;
      }));
    }
  }
  RaftCluster& cluster() { return cluster_; }
  // Every member's exporter URL, a stopped one's included (it refuses connections).
  std::vector<std::string> Urls() const { return urls_; }
  std::string Url(int m) const { return urls_[static_cast<std::size_t>(m - 1)]; }
  void StopExporter(int m) { exporters_[static_cast<std::size_t>(m - 1)].reset(); }
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
  std::vector<std::string> urls_;
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
  const auto r = RunReport({"--web.timeout=500ms", "--web.basic-auth.allow-http",
                            "http://prom:hunter2@127.0.0.1:1", "http://prom:hunter2@127.0.0.1:1"});
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

// A leader's /status, as a URL that impersonates it serves it: its NB entry says it last heard
// `victim` `ago_ms` ago and hears a new member, beef, at the victim's host.
std::string Impersonated(const std::string& status, const std::string& victim, long ago_ms) {
  rapidjson::Document d;
  d.Parse(status.c_str());
  EXPECT_FALSE(d.HasParseError());
  for (auto& db : d["databases"].GetArray()) {
    if (std::string(db["name"].GetString()) != "OVN_Northbound") continue;
    auto& servers = db["status"]["servers"];
    std::string host;
    for (auto& e : servers.GetArray()) {
      if (std::string(e["server_id"].GetString()) != victim) continue;
      if (!e.HasMember("last_msg_ms_ago") || !e["address"].HasMember("host")) continue;
      e["last_msg_ms_ago"].SetInt64(ago_ms);
      host = e["address"]["host"].GetString();
    }
    EXPECT_FALSE(host.empty()) << victim << " not in the leader's view";
    rapidjson::Value beef(rapidjson::kObjectType);
    beef.AddMember("server_id", "beef", d.GetAllocator());
    rapidjson::Value address(rapidjson::kObjectType);
    address.AddMember("raw", rapidjson::Value(("tcp:" + host + ":1").c_str(), d.GetAllocator()),
                      d.GetAllocator());
    beef.AddMember("address", address, d.GetAllocator());
    beef.AddMember("last_msg_ms_ago", 10, d.GetAllocator());
    servers.PushBack(beef, d.GetAllocator());
  }
  rapidjson::StringBuffer out;
  rapidjson::Writer<rapidjson::StringBuffer> writer(out);
  d.Accept(writer);
  return out.GetString();
}

// The cluster with member 2 leading NB (so that no fake, all on 127.0.0.1, is on its host):
// A = 2 the leader, B = 1 and C = 3 its followers, each with its NB server ID.
struct Roles {
  int a = 2, b = 1, c = 3;
  std::string a_id, b_id, c_id;
};
Roles LeaderIsTwo(ThreeMembers& t) {
  Roles r;
  t.cluster().Lead(r.a, "nb");
  r.a_id = t.cluster().ServerId(r.a, "nb");
  r.b_id = t.cluster().ServerId(r.b, "nb");
  r.c_id = t.cluster().ServerId(r.c, "nb");
  EXPECT_EQ(t.cluster().Leader("nb"), r.a);
  return r;
}

// The healthy leader's exporter refused; a URL serving its /status, but saying it last heard
// the healthy follower C 99 s ago and hears a new member at C's host; a URL repeating C's own
// /status. Once: `to remove C, from a healthy member: ... cluster/kick` (exit 3). Now no kick:
// a URL is unreachable, two are untrusted, and the impersonator is not on the leader's host.
TEST(ReportIntegrationTest, AnImpersonatedLeaderWithItsExporterDownAdvisesNoKick) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  ThreeMembers t;
  const Roles r = LeaderIsTwo(t);
  ASSERT_EQ(t.Report({}, Healthy).exit, 0);
  FakeHttpServer impostor(
      Impersonated(testing::HttpGet(t.Url(r.a) + "/status").body, r.c_id, 99000));
  FakeHttpServer replay(testing::HttpGet(t.Url(r.c) + "/status").body);
  t.StopExporter(r.a);
  const auto run = RunReport({"--cluster.expected-members=3", t.Url(r.a), t.Url(r.b), t.Url(r.c),
                              impostor.Url(), replay.Url()});
  SCOPED_TRACE(run.out);
  std::printf("[ attack   ] leader's exporter down, an impostor and a replay of %s: exit %d, %s\n",
              r.c_id.c_str(), run.exit,
              run.out.find("cluster/kick") == std::string::npos ? "no kick" : "KICK ADVISED");
  ExpectNoKick(run);
  EXPECT_EQ(run.exit, 3);
  const std::string refused =
      "to remove " + r.c_id + ": no command advised: unreachable: " + t.Url(r.a) + "; untrusted: ";
  EXPECT_NE(run.out.find(refused), std::string::npos);
  EXPECT_NE(run.out.find("not shown to be its own exporter (its URL's host 127.0.0.1 is not its "
                         "Raft address host 127.0.0.2"),
            std::string::npos);
}

// The same impostor beside one honest follower alone: once a kick of the healthy C (exit 1, no
// UNTRUSTED line) from one hostile URL. Now none, naming what is missing; with --member saying
// the impostor's URL is member A's exporter, as an operator would who trusted it, the lie is
// taken as A's word (the binding is the operator's to give).
TEST(ReportIntegrationTest, AnImpostorBesideOneFollowerAdvisesNoKick) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  ThreeMembers t;
  const Roles r = LeaderIsTwo(t);
  ASSERT_EQ(t.Report({}, Healthy).exit, 0);
  FakeHttpServer impostor(
      Impersonated(testing::HttpGet(t.Url(r.a) + "/status").body, r.c_id, 99000));
  const auto run = RunReport({"--cluster.expected-members=3", t.Url(r.b), impostor.Url()});
  SCOPED_TRACE(run.out);
  std::printf("[ attack   ] an impostor of the leader beside one follower: exit %d, %s\n", run.exit,
              run.out.find("cluster/kick") == std::string::npos ? "no kick" : "KICK ADVISED");
  ExpectNoKick(run);
  EXPECT_EQ(run.exit, 1);
  EXPECT_NE(
      run.out.find("to remove " + r.c_id + ": no command advised: the leader " + r.a_id +
                   "'s report comes from " + impostor.Url() + ", not shown to be its own exporter"),
      std::string::npos);
  // Bound to another host than the one it claims: untrusted.
  const auto bound = RunReport(
      {"--cluster.expected-members=3", t.Url(r.b), "--member=" + impostor.Url() + "=127.0.0.1"});
  ExpectNoKick(bound);
  EXPECT_EQ(bound.exit, 3) << bound.out;
  EXPECT_NE(bound.out.find("UNTRUSTED: " + impostor.Url() + ": it reads member " + r.a_id +
                           " at host 127.0.0.2, but --member binds it to host 127.0.0.1"),
            std::string::npos)
      << bound.out;
}

// A genuine stale member: a follower restarted with a fresh database (a new ID at its old
// address) while its exporter is down. Through exporters on their members' hosts the old ID's
// kick is advised, and the new ID's never; through exporters all on one host it is advised
// only once --member binds each URL to its member.
TEST(ReportIntegrationTest, AGenuineStaleMemberStillGetsItsKick) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  for (const bool on_own_host : {true, false}) {
    SCOPED_TRACE(on_own_host ? "exporters on their members' hosts" : "exporters on 127.0.0.1");
    ThreeMembers t(on_own_host);
    // Led by member 3: on 127.0.0.1, no URL is on the leader's host.
    t.cluster().Lead(3, "nb");
    ASSERT_EQ(t.Report({}, Healthy).exit, 0);
    const int m = NbFollower(t.cluster());
    const std::string old_id = t.cluster().ServerId(m, "nb");
    t.StopExporter(m);
    t.cluster().RestartFresh(m);
    t.cluster().Wait();
    const std::string new_id = t.cluster().ServerId(m, "nb");
    ASSERT_NE(old_id, new_id);
    std::vector<std::string> args{"--cluster.expected-members=3"};
    std::vector<std::string> members = args;
    for (int other = 1; other <= 3; ++other) {
      if (other == m) continue;
      args.push_back(t.Url(other));
      members.push_back("--member=" + t.Url(other) + "=127.0.0." + std::to_string(other));
    }
    const std::string kick = "cluster/kick OVN_Northbound " + old_id;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    ReportRun run = RunReport(on_own_host ? args : members);
    while (run.out.find(kick) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      run = RunReport(on_own_host ? args : members);
    }
    std::printf("[ scenario ] fresh restart of member %d (%s -> %s), %s: %s\n", m, old_id.c_str(),
                new_id.c_str(), on_own_host ? "bound by host" : "bound by --member",
                run.out.find(kick) == std::string::npos ? "NO KICK" : "kick advised");
    EXPECT_NE(run.out.find(kick), std::string::npos) << run.out;
    EXPECT_EQ(run.out.find("cluster/kick OVN_Northbound " + new_id), std::string::npos) << run.out;
    if (!on_own_host) {
      const auto unbound = RunReport(args);
      EXPECT_EQ(unbound.out.find("cluster/kick"), std::string::npos) << unbound.out;
      EXPECT_NE(unbound.out.find("not shown to be its own exporter"), std::string::npos)
          << unbound.out;
    }
  }
}

// What a /status echoes of the credentials is never printed; and they are never sent over
// plain http unless the operator says so.
TEST(ReportIntegrationTest, CredentialsAreNeverSentInTheClearNorPrintedBack) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  const testing::TempDir dir("ovn-raft-report-echo");
  testing::WriteFile(dir / "password", "hunter2\n");
  // "prom:hunter2" and its base64, as an echoing proxy or a hostile exporter would serve them.
  const std::string echo = "hunter2 prom:hunter2 Basic cHJvbTpodW50ZXIy";
  FakeHttpServer echoing(R"({"databases":[)" +
                         Entry("c1c1", "a1a1", "tcp:127.0.0.1:6641", "leader", "self",
                               Server("a1a1", "tcp:127.0.0.1:6641", 0) + "," +
                                   Server("b0b0", "tcp:" + echo + ":1", 9)) +
                         R"(,{"name":"OVN_Southbound","up":false,"error":{"message":")" + echo +
                         R"("}}],"expected_cluster":{"hosts":[")" + echo + R"("]}})");
  const std::vector<std::string> auth = {"--web.basic-auth.username=prom",
                                         "--web.basic-auth.password-file=" + (dir / "password")};
  auto args = auth;
  args.push_back(echoing.Url());
  const auto refused = RunReport(args);
  std::printf("[ attack   ] basic auth to a plain http URL: exit %d: %s", refused.exit,
              refused.err.substr(0, refused.err.find('\n') + 1).c_str());
  EXPECT_EQ(refused.exit, 2);
  EXPECT_NE(refused.err.find("refusing to send the basic-auth password over plain http to " +
                             echoing.Url() +
                             ": use an https:// URL, or "
                             "--web.basic-auth.allow-http"),
            std::string::npos)
      << refused.err;
  const std::string in_url = "http://prom:hunter2@" + echoing.Url().substr(7);
  const auto url_refused = RunReport({in_url});
  EXPECT_EQ(url_refused.exit, 2);
  EXPECT_EQ(url_refused.err.find("hunter2"), std::string::npos) << url_refused.err;
  for (const auto& run : {RunReport([&] {
                            auto a = args;
                            a.push_back("--web.basic-auth.allow-http");
                            return a;
                          }()),
                          RunReport({"--web.basic-auth.allow-http", in_url})}) {
    SCOPED_TRACE(run.out);
    EXPECT_NE(run.out.find("b0b0"), std::string::npos);  // it was read
    for (const std::string secret : {"hunter2", "cHJvbTpodW50ZXIy"}) {
      EXPECT_EQ(run.out.find(secret), std::string::npos) << secret;
      EXPECT_EQ(run.err.find(secret), std::string::npos) << secret;
    }
    EXPECT_NE(run.out.find("xxxxx"), std::string::npos);
  }
}

// A steady write load on NB for as long as it is in scope: a leader's slow disk shows only
// under writes.
class NbWriteLoad {
 public:
  explicit NbWriteLoad(ThreeMembers& t)
      : t_(t), load_([&t] { t.cluster().Load("nb", 240, "0.1"); }) {}
  NbWriteLoad(const NbWriteLoad&) = delete;
  NbWriteLoad& operator=(const NbWriteLoad&) = delete;
  ~NbWriteLoad() {
    t_.cluster().Unload();
    load_.join();
  }

 private:
  ThreeMembers& t_;
  std::thread load_;
};

// The report on the three members, run again until its output matches `named` or 120 s have
// passed since `since`: its last run, the seconds since `since` and how many runs it took.
struct ReportUntil {
  ReportRun run;
  double seconds = 0;
  int runs = 0;
};
ReportUntil ReportUntilNamed(ThreeMembers& t, const std::regex& named,
                             std::chrono::steady_clock::time_point since) {
  ReportUntil r;
  while (std::chrono::steady_clock::now() < since + std::chrono::seconds(120)) {
    r.run = RunReport({"--cluster.expected-members=3", t.Url(1), t.Url(2), t.Url(3)});
    ++r.runs;
    if (std::regex_search(r.run.out, named)) break;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
  return r;
}

// A leader whose own disk syncs slowly (every fsync half a second late) under a steady write
// load: named by the report, as the leader, within two minutes; before, under the same load,
// the report finds nothing of the kind.
TEST(ReportIntegrationTest, ASlowLeaderIsNamedAsTheLeader) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  ThreeMembers t;
  ASSERT_EQ(t.Report({}, Healthy).exit, 0);
  const NbWriteLoad load(t);
  const int leader = t.cluster().Leader("nb");
  ASSERT_NE(leader, 0);
  const std::string id = t.cluster().ServerId(leader, "nb");
  std::this_thread::sleep_for(std::chrono::seconds(5));
  for (int i = 0; i < 3; ++i) {
    const auto before = RunReport({"--cluster.expected-members=3", t.Url(1), t.Url(2), t.Url(3)});
    EXPECT_EQ(before.out.find("LEADER"), std::string::npos) << before.out;
    EXPECT_EQ(before.out.find("SLOW"), std::string::npos) << before.out;
    EXPECT_EQ(before.out.find("NOT CATCHING UP"), std::string::npos) << before.out;
  }
  t.cluster().SlowDisk(leader, "nb", 500000);
  const auto slowed = std::chrono::steady_clock::now();
  const std::regex named("    (SLOW LEADER|LEADER NOT SYNCING): " + id + " leads");
  const auto [run, seconds, runs] = ReportUntilNamed(t, named, slowed);
  t.cluster().FastDisk(leader, "nb");
  SCOPED_TRACE(run.out);
  std::smatch line;
  const bool found = std::regex_search(run.out, line, named);
  std::printf("[ scenario ] NB leader %s with a slow fsync: %s after %.0f s (%d reports)\n",
              id.c_str(), found ? line.str(1).c_str() : "NOT NAMED", seconds, runs);
  ASSERT_TRUE(found);
  EXPECT_LE(seconds, 120.0);
  EXPECT_EQ(run.exit, 1);
  EXPECT_NE(run.out.find("needs attention: the leader " + id + "'s log "), std::string::npos);
  EXPECT_EQ(run.out.find("the leader has not heard from it"), std::string::npos);
}

// A leader whose own disk hangs (every fsync held for an hour) under a steady write load:
// once "healthy" 90 and 150 s into the hang. Now named within two minutes, by its own log
// that stops (LEADER NOT SYNCING) or trails what is committed (SLOW LEADER), or, once it lost
// the lead, as any member whose log does not sync.
TEST(ReportIntegrationTest, ALeaderWithAHungDiskIsNamed) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  ThreeMembers t;
  ASSERT_EQ(t.Report({}, Healthy).exit, 0);
  const NbWriteLoad load(t);
  const int leader = t.cluster().Leader("nb");
  ASSERT_NE(leader, 0);
  const std::string id = t.cluster().ServerId(leader, "nb");
  std::this_thread::sleep_for(std::chrono::seconds(5));
  t.cluster().SlowDisk(leader, "nb", 2000000000);
  const auto hung = std::chrono::steady_clock::now();
  const std::regex named("    (SLOW LEADER|LEADER NOT SYNCING): " + id + " leads|    (NOT " +
                         "CATCHING UP|UNHEARD|SLOW): (the leader says )?" + id);
  const auto [run, seconds, runs] = ReportUntilNamed(t, named, hung);
  t.cluster().FastDisk(leader, "nb");
  SCOPED_TRACE(run.out);
  std::smatch line;
  const bool found = std::regex_search(run.out, line, named);
  std::printf("[ scenario ] NB leader %s with a hung disk: %s after %.0f s (%d reports)\n",
              id.c_str(), found ? line.str(0).c_str() + 4 : "NOT NAMED", seconds, runs);
  ASSERT_TRUE(found);
  EXPECT_NE(run.exit, 0);
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
