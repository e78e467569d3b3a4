// The real exporter binary beside real ovsdb-server clusters, scraped over HTTP: every metric
// must tell the truth about the cluster, also after members die or come back with new IDs.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <set>
#include <thread>

#include "raft_cluster.h"
#include "support/bcrypt.h"
#include "support/eventually.h"
#include "support/exporter_process.h"
#include "support/exposition.h"
#include "support/fake_ovsdb_server.h"
#include "support/fake_unix_server.h"
#include "support/files.h"
#include "support/fixtures.h"
#include "support/shell.h"
#include "support/silencing_proxy.h"
#include "support/temp_dir.h"
#include "support/test_paths.h"

namespace ovn_raft {
namespace {

using testing::ExporterProcess;
using testing::Exposition;
using testing::RaftCluster;
using Exporters = std::vector<std::unique_ptr<ExporterProcess>>;
const char* const kDbs[] = {"nb", "sb"};

std::vector<std::string> DatabaseFlags(const RaftCluster& c, int member) {
  std::vector<std::string> flags;
  for (const std::string db : kDbs) {
    flags.push_back("--ovsdb.database=" + RaftCluster::DbName(db) + "=" + c.Ctl(member, db) + "," +
                    c.Sock(member, db));
  }
  return flags;
}

Exporters StartExporters(const RaftCluster& c) {
  Exporters out;
  for (int m = 1; m <= c.members(); ++m) {
    auto args = DatabaseFlags(c, m);
    args.push_back("--ovsdb.min-interval=0");
    args.push_back("--ovsdb.timeout=1s");
    out.push_back(std::make_unique<ExporterProcess>(args));
  }
  return out;
}

Exposition Scrape(const ExporterProcess& e) {
  const auto r = e.Get();
  EXPECT_EQ(r.status, 200);
  return Exposition(r.body);
}

using testing::Eventually;

std::map<std::string, std::string> Db(const std::string& db) {
  return {{"db", RaftCluster::DbName(db)}};
}

// The release of the ovsdb-server the cluster runs (OVS_BIN_DIR's, else the system's), as its
// own --version prints it: "ovsdb-server (Open vSwitch) 3.5.0" -> "3.5.0".
std::string OvsdbServerRelease() {
  FILE* p = popen("${OVS_BIN_DIR:+$OVS_BIN_DIR/}ovsdb-server --version", "r");
  if (!p) return "";
  char line[256] = {};
  const bool read = fgets(line, sizeof(line), p) != nullptr;
  pclose(p);
  std::string text = read ? line : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text.substr(text.rfind(' ') + 1);
}

TEST(ExporterIntegrationTest, HealthyClusterSeenTheSameByEveryMember) {
  RaftCluster c(3);
  const auto exporters = StartExporters(c);
  for (const std::string db : kDbs) {
    SCOPED_TRACE(db);
    const auto d = Db(db);
    const int leader = c.Leader(db);
    std::set<std::string> leader_ids, hashes, terms;
    std::string leader_server_id;
    for (int m = 1; m <= 3; ++m) {
      SCOPED_TRACE("member " + std::to_string(m));
      const Exposition x = Scrape(*exporters[m - 1]);
      EXPECT_EQ(x.Value("ovn_raft_up", d), 1);
      EXPECT_EQ(x.Value("ovn_raft_role", {{"db", d.at("db")}, {"role", "leader"}}), m == leader);
      EXPECT_EQ(x.Value("ovn_raft_role", {{"db", d.at("db")}, {"role", "follower"}}), m != leader);
      EXPECT_EQ(x.Value("ovn_raft_status", {{"db", d.at("db")}, {"status", "cluster_member"}}), 1);
      EXPECT_EQ(x.Value("ovn_raft_connected", d), 1);
      EXPECT_EQ(x.Value("ovn_raft_clustered", d), 1);
      EXPECT_EQ(x.Value("ovn_raft_has_leader", d), 1);
      EXPECT_EQ(x.Value("ovn_raft_members", d), 3);
      EXPECT_EQ(x.Value("ovn_raft_quorum_size", d), 2);
      // Every peer reachable over an established Raft connection (for the rules' liveness).
      EXPECT_TRUE(Eventually([&] {
        double connected = 0;
        for (const auto& s : Scrape(*exporters[m - 1]).All("ovn_raft_member_connected", d)) {
          connected += s.value;
        }
        return connected == 2.0;
      }));
      EXPECT_EQ(x.Value("ovn_raft_view_duplicate_hosts", d), 0);
      EXPECT_EQ(x.Value("ovn_raft_self_in_view", d), 1);
      EXPECT_EQ(x.Value("ovn_raft_self_address_conflict", d), 0);
      EXPECT_EQ(x.Label("ovn_raft_server_info", "address", d),
                "tcp:127.0.0." + std::to_string(m) + ":" + std::to_string(c.port(db)));
      EXPECT_EQ(x.Label("ovn_raft_ovsdb_server_build_info", "version", d), OvsdbServerRelease());
      std::set<std::string> hosts;
      for (const auto& s : x.All("ovn_raft_member_info", d)) hosts.insert(s.labels.at("host"));
      EXPECT_EQ(hosts, (std::set<std::string>{"127.0.0.1", "127.0.0.2", "127.0.0.3"}));
      leader_ids.insert(x.Label("ovn_raft_leader_info", "leader_id", d));
      hashes.insert(x.Label("ovn_raft_view_info", "view_hash", d));
      terms.insert(std::to_string(*x.Value("ovn_raft_term", d)));
      if (m == leader) {
        leader_server_id = x.Label("ovn_raft_server_info", "server_id", d);
        EXPECT_EQ(x.All("ovn_raft_member_match_index", d).size(), 3u);
      } else {
        EXPECT_EQ(x.All("ovn_raft_member_match_index", d).size(), 0u);
      }
    }
    EXPECT_EQ(leader_ids, std::set<std::string>{leader_server_id});
    EXPECT_EQ(hashes.size(), 1u);  // equal views, equal hashes
    EXPECT_EQ(terms.size(), 1u);
  }
  // The exposition passes the official linter.
  const std::string path = "/tmp/ovn-raft-promtool-" + std::to_string(getpid()) + ".txt";
  std::ofstream(path) << exporters[0]->Get().body;
  EXPECT_EQ(system(("promtool check metrics < " + path + " >/dev/null 2>&1").c_str()), 0);
  std::remove(path.c_str());
}

TEST(ExporterIntegrationTest, LeaderKilled) {
  RaftCluster c(3);
  const auto exporters = StartExporters(c);
  const int old_leader = c.Leader("nb");
  const std::string old_id =
      Scrape(*exporters[old_leader - 1]).Label("ovn_raft_server_info", "server_id", Db("nb"));
  c.Kill(old_leader);
  for (int m = 1; m <= 3; ++m) {
    if (m == old_leader) continue;
    SCOPED_TRACE("member " + std::to_string(m));
    EXPECT_TRUE(Eventually([&] {
      const auto x = Scrape(*exporters[m - 1]);
      const auto id = x.Label("ovn_raft_leader_info", "leader_id", Db("nb"));
      return !id.empty() && id != old_id && x.Value("ovn_raft_has_leader", Db("sb")) == 1.0;
    }));
    EXPECT_EQ(Scrape(*exporters[m - 1]).Value("ovn_raft_members", Db("nb")), 3);
  }
  // The dead member's exporter still answers, with up 0 and a counted reason.
  const Exposition dead = Scrape(*exporters[old_leader - 1]);
  for (const std::string db : kDbs) {
    EXPECT_EQ(dead.Value("ovn_raft_up", Db(db)), 0);
    double failures = 0;
    for (const auto& s : dead.All("ovn_raft_exporter_errors_total", Db(db))) failures += s.value;
    EXPECT_GT(failures, 0) << db;
  }
}

TEST(ExporterIntegrationTest, TwoMembersKilled) {
  RaftCluster c(3);
  const auto exporters = StartExporters(c);
  c.Kill(2);
  c.Kill(3);
  for (const std::string db : kDbs) {
    SCOPED_TRACE(db);
    const auto d = Db(db);
    EXPECT_TRUE(Eventually([&] {
      const auto x = Scrape(*exporters[0]);
      return x.Value("ovn_raft_role", {{"db", d.at("db")}, {"role", "candidate"}}) == 1.0 &&
             x.Value("ovn_raft_connected", d) == 0.0;
    }));
    const auto x = Scrape(*exporters[0]);
    EXPECT_EQ(x.Value("ovn_raft_has_leader", d), 0);
    EXPECT_TRUE(x.All("ovn_raft_leader_info", d).empty());
    EXPECT_EQ(x.Value("ovn_raft_status", {{"db", d.at("db")}, {"status", "disconnected"}}), 1);
    EXPECT_EQ(x.Value("ovn_raft_connections",
                      {{"db", d.at("db")}, {"direction", "outbound"}, {"state", "connected"}}),
              0);
    EXPECT_EQ(x.Value("ovn_raft_up", d), 1);  // the member itself is readable
  }
}

TEST(ExporterIntegrationTest, FreshRestartShowsTheDuplicateHostEverywhere) {
  RaftCluster c(3);
  const auto exporters = StartExporters(c);
  const int victim = c.Leader("nb") == 3 ? 2 : 3;
  c.RestartFresh(victim);
  c.Wait();
  for (const std::string db : kDbs) {
    SCOPED_TRACE(db);
    const auto d = Db(db);
    std::set<std::string> hashes;
    for (int m = 1; m <= 3; ++m) {
      SCOPED_TRACE("member " + std::to_string(m));
      ASSERT_TRUE(Eventually(
          [&] { return Scrape(*exporters[m - 1]).Value("ovn_raft_members", d) == 4.0; }));
      const auto x = Scrape(*exporters[m - 1]);
      EXPECT_EQ(x.Value("ovn_raft_view_duplicate_hosts", d), 1);
      EXPECT_EQ(x.Value("ovn_raft_view_duplicate_addresses", d), 1);
      EXPECT_EQ(x.Value("ovn_raft_quorum_size", d), 3);
      EXPECT_EQ(x.Value("ovn_raft_self_address_conflict", d), m == victim ? 1 : 0);
      EXPECT_EQ(x.All("ovn_raft_member_info",
                      {{"db", d.at("db")}, {"host", "127.0.0." + std::to_string(victim)}})
                    .size(),
                2u);
      hashes.insert(x.Label("ovn_raft_view_info", "view_hash", d));
    }
    EXPECT_EQ(hashes.size(), 1u);
  }
}

TEST(ExporterIntegrationTest, HungAndMissingDatabasesHideNothingElse) {
  RaftCluster c(1);
  testing::FakeUnixServer hung([&hung](int, const std::string&) { hung.Hang(); });
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + c.Ctl(1, "nb") + "," + c.Sock(1, "nb"),
                     "--ovsdb.database=Hung=" + hung.path(),
                     "--ovsdb.database=Missing=/nonexistent/x.ctl", "--ovsdb.timeout=500ms",
                     "--ovsdb.min-interval=0"});
  for (int i = 0; i < 3; ++i) {
    const auto r = e.Get();
    ASSERT_EQ(r.status, 200);
    EXPECT_LT(r.seconds, 0.5 + 0.3) << "scrape took " << r.seconds << " s";
    const Exposition x(r.body);
    EXPECT_EQ(x.Value("ovn_raft_up", {{"db", "OVN_Northbound"}}), 1);
    EXPECT_EQ(x.Value("ovn_raft_up", {{"db", "Hung"}}), 0);
    EXPECT_EQ(x.Value("ovn_raft_up", {{"db", "Missing"}}), 0);
    EXPECT_EQ(x.Value("ovn_raft_exporter_errors_total", {{"db", "Hung"}, {"reason", "timeout"}}),
              i + 1);
    EXPECT_EQ(x.Value("ovn_raft_exporter_errors_total",
                      {{"db", "Missing"}, {"reason", "socket_missing"}}),
              i + 1);
  }
  EXPECT_EQ(e.Get("/readyz").status, 503);
}

// A server that answers everything but `version`, or everything but `memory/show` (a proxy in
// front of a real one): the call left unanswered costs only itself. Every other series is on
// every page, the first included; only the first scrape waits for the silent call, which is
// not asked again in the server's session for a while.
TEST(ExporterIntegrationTest, AnUnansweredVersionOrMemoryShowCostsOnlyItself) {
  RaftCluster c(1);
  for (const std::string silenced : {"version", "memory/show"}) {
    SCOPED_TRACE(silenced);
    testing::SilencingProxy proxy(c.Ctl(1, "nb"), silenced);
    ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + proxy.path() + "," + c.Sock(1, "nb"),
                       "--ovsdb.timeout=1s", "--ovsdb.min-interval=0",
                       "--ovsdb.server-facts-interval=0"});
    const auto d = Db("nb");
    std::string seconds;
    for (int i = 0; i < 6; ++i) {
      const auto r = e.Get();
      ASSERT_EQ(r.status, 200);
      seconds += (i ? ", " : "") + std::to_string(r.seconds).substr(0, 5);
      const Exposition x(r.body);
      EXPECT_EQ(x.Value("ovn_raft_up", d), 1) << "scrape " << i;
      EXPECT_TRUE(x.Value("ovn_raft_ovsdb_server_seen_since_timestamp_seconds", d)) << i;
      EXPECT_TRUE(x.Value("ovn_raft_log_uncompacted_since_timestamp_seconds", d)) << i;
      EXPECT_TRUE(x.Value("ovn_raft_storage_ok", d)) << i;
      if (silenced == "version") {
        EXPECT_FALSE(x.Value("ovn_raft_ovsdb_server_build_info", d)) << i;
        EXPECT_TRUE(x.Value("ovn_raft_ovsdb_cells", d)) << i;
      } else {
        EXPECT_EQ(x.Label("ovn_raft_ovsdb_server_build_info", "version", d), OvsdbServerRelease())
            << i;
        EXPECT_FALSE(x.Value("ovn_raft_ovsdb_cells", d)) << i;  // left unanswered, not asked again
      }
    }
    std::printf("[ figures  ] %s never answered: 6 scrapes took %s s\n", silenced.c_str(),
                seconds.c_str());
    // Only the first scrape can wait for the silent call: it is asked once, while
    // cluster/status is asked on every scrape.
    EXPECT_EQ(proxy.requests(silenced), 1);
    EXPECT_EQ(proxy.requests("cluster/status"), 6);
  }
}

// curl as a scraper whose scrape timeout is `timeout` seconds (sent as Prometheus sends it, and
// given up after it, as Prometheus does): the status (0 when it gave up), seconds and page.
struct ScraperPage {
  int status = 0;
  double seconds = 0;
  std::string body;
};
ScraperPage ScrapeWithin(const ExporterProcess& e, const std::string& timeout) {
  const std::string file = "/tmp/ovn-raft-page-" + std::to_string(getpid()) + ".txt";
  const std::string out = testing::Shell(
      "curl -s -o " + file + " -w '%{http_code} %{time_total}' --max-time " + timeout +
      " -H 'X-Prometheus-Scrape-Timeout-Seconds: " + timeout + "' '" + e.Url() + "'");
  ScraperPage p;
  std::sscanf(out.c_str(), "%d %lf", &p.status, &p.seconds);
  std::ifstream in(file);
  p.body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  std::remove(file.c_str());
  return p;
}

// A member whose NB server hangs (SIGSTOP), scraped with a timeout (1 s) shorter than
// --ovsdb.timeout (2 s): every page answers within the scraper's deadline, its healthy SB (the
// SB leader) up, NB up 0 with the reason; back to back (scrapes that find the round of the one
// before in flight) and at the scraper's own pace of one a second.
TEST(ExporterIntegrationTest, AHungDatabaseNeverFailsThePageWithinTheScrapersDeadline) {
  RaftCluster c(3);
  const int m = c.Leader("sb");
  ASSERT_GT(m, 0);
  ExporterProcess e(DatabaseFlags(c, m));  // the defaults: --ovsdb.timeout=2s, min interval 1s
  ASSERT_EQ(Scrape(e).Value("ovn_raft_up", Db("nb")), 1);
  std::string pid = testing::Shell("cat " + c.dir() + "/m" + std::to_string(m) + "/nb.pid");
  while (!pid.empty() && pid.back() == '\n') pid.pop_back();
  ASSERT_EQ(system(("kill -STOP " + pid).c_str()), 0);
  struct Resume {
    std::string pid;
    ~Resume() { EXPECT_EQ(system(("kill -CONT " + pid).c_str()), 0); }
  } resume{pid};
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // past --ovsdb.min-interval
  std::string seconds;
  const auto check = [&](int i) {
    const auto p = ScrapeWithin(e, "1");
    seconds += (i ? ", " : "") + std::to_string(p.seconds).substr(0, 5);
    EXPECT_EQ(p.status, 200) << "scrape " << i;
    // The scraper's deadline itself, the promise; the exporter's own wait ends a fifth earlier.
    EXPECT_LT(p.seconds, 1.0) << "scrape " << i;
    const Exposition x(p.body);
    EXPECT_EQ(x.Value("ovn_raft_up", Db("sb")), 1) << "scrape " << i;
    EXPECT_EQ(x.Value("ovn_raft_role", {{"db", "OVN_Southbound"}, {"role", "leader"}}), 1) << i;
    EXPECT_EQ(x.Value("ovn_raft_up", Db("nb")), 0) << "scrape " << i;
  };
  for (int i = 0; i < 6; ++i) check(i);  // back to back
  const auto start = std::chrono::steady_clock::now();
  for (int i = 6; i < 12; ++i) {  // one a second
    std::this_thread::sleep_until(start + std::chrono::seconds(i - 6));
    check(i);
  }
  std::printf("[ figures  ] NB stopped, scrape timeout 1 s: 12 pages in %s s\n", seconds.c_str());
  // Counted by the scrapes above; read without a deadline of its own, which a loaded machine
  // could miss once more.
  EXPECT_GE(Scrape(e).Value("ovn_raft_exporter_errors_total",
                            {{"db", "OVN_Northbound"}, {"reason", "scrape_timeout"}}),
            1);
}

TEST(ExporterIntegrationTest, ServerRestartedBetweenScrapes) {
  RaftCluster c(1);
  ExporterProcess e(DatabaseFlags(c, 1));
  EXPECT_EQ(Scrape(e).Value("ovn_raft_up", Db("nb")), 1);
  c.Kill(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // past --ovsdb.min-interval
  EXPECT_EQ(Scrape(e).Value("ovn_raft_up", Db("nb")), 0);
  c.Restart(1);
  EXPECT_TRUE(Eventually([&] { return Scrape(e).Value("ovn_raft_up", Db("nb")) == 1.0; }));
  EXPECT_TRUE(Eventually([&] { return Scrape(e).Value("ovn_raft_has_leader", Db("sb")) == 1.0; }));
}

// memory/show and the storage status are asked at most once per --ovsdb.server-facts-interval:
// reused in between, never across a restart of the server. Seen through the cells a real
// server counts (memory/show), with a second exporter that asks on every read as the reference.
TEST(ExporterIntegrationTest, ServerFactsAreReusedWithinTheirIntervalButNotAcrossARestart) {
  RaftCluster c(1);
  auto flags = DatabaseFlags(c, 1);
  flags.push_back("--ovsdb.min-interval=0");
  auto every_read = flags;
  every_read.push_back("--ovsdb.server-facts-interval=0");
  flags.push_back("--ovsdb.server-facts-interval=1h");
  ExporterProcess reference(every_read);
  ExporterProcess cached(flags);
  const auto cells = [&](const ExporterProcess& e) {
    return Scrape(e).Value("ovn_raft_ovsdb_cells", Db("nb")).value_or(-1);
  };
  const double before = cells(cached);  // its facts, read now, for the next hour
  ASSERT_GE(before, 0);
  ASSERT_EQ(cells(reference), before);
  // A row more in the database (the test writes; the exporters only read).
  const std::string insert =
      "ovsdb-client transact unix:" + c.Sock(1, "nb") +
      R"( '["OVN_Northbound",{"op":"insert","table":"Logical_Switch","row":{"name":"facts"}}]')"
      " >/dev/null";
  ASSERT_EQ(system(insert.c_str()), 0);
  ASSERT_TRUE(Eventually([&] { return cells(reference) > before; }));
  for (int i = 0; i < 5; ++i) EXPECT_EQ(cells(cached), before);  // an hour from due
  EXPECT_EQ(Scrape(cached).Value("ovn_raft_storage_ok", Db("nb")), 1);
  // A server that stopped answering lends nothing; a restarted one is asked again.
  c.Kill(1);
  EXPECT_TRUE(Eventually([&] { return cells(cached) == -1; }));
  c.Restart(1);
  EXPECT_TRUE(Eventually([&] { return cells(cached) > before; }));
  EXPECT_EQ(cells(cached), cells(reference));
}

// 50 scrapes at once must not become 50 cluster/status calls.
TEST(ExporterIntegrationTest, ScrapeStormIsOneRoundPerMinimumInterval) {
  const std::string status = testing::Fixture("ovs-3.1.0/leader.txt");
  testing::FakeUnixServer fake([&](int fd, const std::string& request) {
    testing::FakeUnixServer::WriteAll(fd, testing::ReplyText(request, status));
  });
  // 50 at once from one address need a share of 50: an address gets a quarter of the workers.
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + fake.path(), "--ovsdb.min-interval=1s",
                     "--web.max-connections=256"});
  const int before = fake.requests("cluster/status");  // none: /healthz does not read
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> clients;
  std::atomic<int> ok{0};
  for (int i = 0; i < 50; ++i) {
    clients.emplace_back([&] {
      const auto r = e.Get();
      if (r.status == 200 &&
          Exposition(r.body).Value("ovn_raft_up", {{"db", "OVN_Northbound"}}) == 1.0)
        ++ok;
    });
  }
  for (auto& t : clients) t.join();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(ok, 50);
  const int rounds = fake.requests("cluster/status") - before;
  EXPECT_GE(rounds, 1);
  EXPECT_LE(rounds, static_cast<int>(elapsed / 1.0) + 1) << "elapsed " << elapsed << " s";
}

TEST(ExporterIntegrationTest, SingleFlightWithoutMinimumInterval) {
  testing::FakeUnixServer slow([](int fd, const std::string& request) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    testing::FakeUnixServer::WriteAll(fd, testing::ReplyText(request, "abcd\nRole: leader\n"));
  });
  ExporterProcess e({"--ovsdb.database=Slow=" + slow.path(), "--ovsdb.min-interval=0",
                     "--web.max-connections=256"});
  std::vector<std::thread> clients;
  for (int i = 0; i < 50; ++i) clients.emplace_back([&] { EXPECT_EQ(e.Get().status, 200); });
  for (auto& t : clients) t.join();
  // The HTTP server has 8 worker threads: each round serves up to 8 waiting scrapes.
  EXPECT_LE(slow.requests("cluster/status"), 50 / 8 + 2);
}

TEST(ExporterIntegrationTest, BasicAuth) {
  const std::string hash = testing::Bcrypt("s3cret", 6);
  const std::string path = "/tmp/ovn-raft-web-" + std::to_string(getpid()) + ".yml";
  std::ofstream(path) << "basic_auth_users:\n  prometheus: " << hash << "\n";
  ExporterProcess e({"--ovsdb.database=X=/nonexistent.ctl", "--web.config.file=" + path});
  EXPECT_EQ(testing::HttpGet(e.Url()).status, 401);
  EXPECT_EQ(testing::HttpGet(e.Url(), "prometheus:wrong").status, 401);
  EXPECT_EQ(testing::HttpGet(e.Url(), "someone:s3cret").status, 401);
  const auto ok = testing::HttpGet(e.Url(), "prometheus:s3cret");
  EXPECT_EQ(ok.status, 200);
  EXPECT_NE(ok.body.find("ovn_raft_up"), std::string::npos);
  EXPECT_EQ(testing::HttpGet(e.Url("/status"), "prometheus:s3cret").status, 200);
  EXPECT_EQ(testing::HttpGet(e.Url("/healthz")).status, 200);
  std::remove(path.c_str());
}

TEST(ExporterIntegrationTest, CleanShutdownAndFlagErrors) {
  ExporterProcess e({"--ovsdb.database=X=/nonexistent.ctl"});
  EXPECT_EQ(e.Terminate(), 0);
  const std::string bin = testing::ExporterBinary();
  const int bad = system((bin + " --ovsdb.timeout=soon >/dev/null 2>&1").c_str());
  EXPECT_EQ(WEXITSTATUS(bad), 2);
  const int unknown = system((bin + " --what >/dev/null 2>&1").c_str());
  EXPECT_EQ(WEXITSTATUS(unknown), 2);
  EXPECT_EQ(WEXITSTATUS(system((bin + " --help >/dev/null").c_str())), 0);
}

// Without --ovsdb.database: the sockets found in OVN_RUNDIR, and the database file in OVN_DBDIR,
// watched from the round it appears in (a database created after the exporter started).
TEST(ExporterIntegrationTest, ADatabaseFileCreatedAfterTheStartIsFoundAndWatched) {
  const std::string status = testing::Fixture("ovs-3.1.0/leader.txt");
  testing::FakeUnixServer fake([&](int fd, const std::string& request) {
    testing::FakeUnixServer::WriteAll(fd, testing::ReplyText(request, status));
  });
  const testing::TempDir dir("ovn-raft-dbdir");
  const std::string run = dir / "run", db = dir / "db";
  ASSERT_EQ(mkdir(run.c_str(), 0755), 0);
  ASSERT_EQ(mkdir(db.c_str(), 0755), 0);
  ASSERT_EQ(symlink(fake.path().c_str(), (run + "/ovnnb_db.ctl").c_str()), 0);
  ASSERT_EQ(symlink(fake.path().c_str(), (run + "/ovnsb_db.ctl").c_str()), 0);
  setenv("OVN_RUNDIR", run.c_str(), 1);
  setenv("OVN_DBDIR", db.c_str(), 1);
  ExporterProcess e({"--ovsdb.min-interval=0"});
  unsetenv("OVN_RUNDIR");
  unsetenv("OVN_DBDIR");
  const auto size = [&] {
    return Exposition(e.Get().body)
        .Value("ovn_raft_database_file_size_bytes", {{"db", "OVN_Northbound"}});
  };
  EXPECT_EQ(Exposition(e.Get().body).Value("ovn_raft_up", {{"db", "OVN_Northbound"}}), 1.0);
  EXPECT_FALSE(size().has_value()) << "no file yet";
  std::ofstream(db + "/ovnnb_db.db") << std::string(4096, 'x');
  EXPECT_EQ(size(), 4096.0);
  const auto page = e.Get("/status").body;
  EXPECT_NE(page.find("\"files_tried\":[\"" + db + "\"]"), std::string::npos) << page;
  EXPECT_NE(page.find("\"path\":\"" + db + "/ovnnb_db.db\""), std::string::npos) << page;
}

// At boot, NB's server may make its sockets after the exporter started (Debian's units count as
// started at once): found alone, SB waits a moment for NB, and both are read.
TEST(ExporterIntegrationTest, TheOtherDatabaseOfThePairStartingLateIsStillRead) {
  RaftCluster c(1);
  const testing::TempDir dir("ovn-raft-late-nb");
  const std::string run = dir / "run";
  ASSERT_EQ(mkdir(run.c_str(), 0755), 0);
  ASSERT_EQ(symlink(c.Ctl(1, "sb").c_str(), (run + "/ovnsb_db.ctl").c_str()), 0);
  ASSERT_EQ(symlink(c.Sock(1, "sb").c_str(), (run + "/ovnsb_db.sock").c_str()), 0);
  std::thread late_nb([&] {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    symlink(c.Ctl(1, "nb").c_str(), (run + "/ovnnb_db.ctl").c_str());
    symlink(c.Sock(1, "nb").c_str(), (run + "/ovnnb_db.sock").c_str());
  });
  setenv("OVN_RUNDIR", run.c_str(), 1);
  ExporterProcess e({"--ovsdb.min-interval=0"});
  unsetenv("OVN_RUNDIR");
  late_nb.join();
  const auto page = Scrape(e);
  EXPECT_EQ(page.Value("ovn_raft_up", Db("nb")), 1.0);
  EXPECT_EQ(page.Value("ovn_raft_up", Db("sb")), 1.0);
  EXPECT_NE(testing::ReadFile(e.log_path()).find("waiting for the other's to appear"),
            std::string::npos);
}

// --ovsdb.database for NB alone, as kolla's example gives it: SB, where ovn-ctl puts its sockets,
// is still read; where it is nowhere to be found, one log line says it is not read and the flag
// that reads it.
TEST(ExporterIntegrationTest, OneGivenDatabaseKeepsTheOtherDiscovered) {
  RaftCluster c(1);
  const testing::TempDir dir("ovn-raft-rundir");
  const std::string run = dir / "run", empty = dir / "empty";
  ASSERT_EQ(mkdir(run.c_str(), 0755), 0);
  ASSERT_EQ(mkdir(empty.c_str(), 0755), 0);
  ASSERT_EQ(symlink(c.Ctl(1, "sb").c_str(), (run + "/ovnsb_db.ctl").c_str()), 0);
  ASSERT_EQ(symlink(c.Sock(1, "sb").c_str(), (run + "/ovnsb_db.sock").c_str()), 0);
  const std::string nb =
      "--ovsdb.database=OVN_Northbound=" + c.Ctl(1, "nb") + "," + c.Sock(1, "nb");

  setenv("OVN_RUNDIR", run.c_str(), 1);
  ExporterProcess found({nb, "--ovsdb.min-interval=0"});
  setenv("OVN_RUNDIR", empty.c_str(), 1);
  ExporterProcess alone({nb, "--ovsdb.min-interval=0"});
  unsetenv("OVN_RUNDIR");

  const auto both = Scrape(found);
  EXPECT_EQ(both.Value("ovn_raft_up", Db("nb")), 1.0);
  EXPECT_EQ(both.Value("ovn_raft_up", Db("sb")), 1.0);
  const auto one = Scrape(alone);
  EXPECT_EQ(one.Value("ovn_raft_up", Db("nb")), 1.0);
  EXPECT_FALSE(one.Value("ovn_raft_up", Db("sb")).has_value());

  const auto log = [](const ExporterProcess& e) { return testing::ReadFile(e.log_path()); };
  EXPECT_NE(log(found).find("msg=\"OVN database sockets found\" dir=" + run +
                            " databases=OVN_Southbound"),
            std::string::npos)
      << log(found);
  const std::string said = log(alone);
  const auto line = said.find("database not read");
  ASSERT_NE(line, std::string::npos) << said;
  const std::string one_line = said.substr(line, said.find('\n', line) - line);
  EXPECT_NE(one_line.find("db=OVN_Southbound"), std::string::npos) << one_line;
  EXPECT_NE(one_line.find("to_read_it=\"--ovsdb.database=OVN_Southbound=" + empty +
                          "/ovnsb_db.ctl," + empty + "/ovnsb_db.sock\""),
            std::string::npos)
      << one_line;
  EXPECT_EQ(said.find("db=OVN_Northbound"), std::string::npos) << said;
}

}  // namespace
}  // namespace ovn_raft
