// The interconnection databases as Kube-OVN's ovn-ic-server runs them: OVN_IC_Northbound and
// OVN_IC_Southbound, a Raft cluster of their own on hosts that run no NB or SB, their sockets
// and files under the names ovn-ctl gives them. An exporter given no --ovsdb.database finds them
// where ovn-ctl puts them and reads them as it reads NB and SB; the report analyses them alike.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "raft_cluster.h"
#include "support/eventually.h"
#include "support/exporter_process.h"
#include "support/exposition.h"
#include "support/files.h"
#include "support/report_process.h"
#include "support/test_paths.h"

namespace ovn_raft {
namespace {

using testing::Eventually;
using testing::ExporterProcess;
using testing::Exposition;
using testing::RaftCluster;
using testing::ReportRun;
using testing::RunReport;

const char* const kIcDbs[] = {"ic_nb", "ic_sb"};

std::map<std::string, std::string> Db(const std::string& db) {
  return {{"db", RaftCluster::DbName(db)}};
}

// A 3-member cluster of both interconnection databases, each member's sockets and files in a
// directory of its own (its /var/run/ovn and /etc/ovn), and beside each member an exporter
// started with OVN_RUNDIR and OVN_DBDIR pointing there and no --ovsdb.database.
class IcServers {
 public:
  IcServers() : cluster_(3, {"ic_nb", "ic_sb"}) {
    for (int m = 1; m <= 3; ++m) {
      setenv("OVN_RUNDIR", cluster_.MemberDir(m).c_str(), 1);
      setenv("OVN_DBDIR", cluster_.MemberDir(m).c_str(), 1);
      exporters_.push_back(std::make_unique<ExporterProcess>(
          std::vector<std::string>{"--ovsdb.min-interval=0", "--cluster.expected-members=3"}));
      unsetenv("OVN_RUNDIR");
      unsetenv("OVN_DBDIR");
    }
  }
  RaftCluster& cluster() { return cluster_; }
  const ExporterProcess& exporter(int m) const { return *exporters_[m - 1]; }
  Exposition Scrape(int m) const {
    const auto r = exporter(m).Get();
    EXPECT_EQ(r.status, 200);
    return Exposition(r.body);
  }
  std::vector<std::string> Urls() const {
    std::vector<std::string> urls;
    for (const auto& e : exporters_) urls.push_back(e->Url(""));
    return urls;
  }

 private:
  RaftCluster cluster_;
  std::vector<std::unique_ptr<ExporterProcess>> exporters_;
};

// Every member's exporter finds both databases in its run directory, and only them, with their
// files; each serves the member's Raft facts under the database's own name, and the three
// members' views agree: one cluster, one leader, three members.
TEST(IcDatabasesIntegrationTest, FoundWithoutFlagsAndReadLikeNbAndSb) {
  IcServers s;
  for (const std::string db : kIcDbs) {
    SCOPED_TRACE(db);
    const int leader = s.cluster().Leader(db);
    ASSERT_GE(leader, 1);
    std::set<std::string> cluster_ids, view_hashes, leaders_named;
    for (int m = 1; m <= 3; ++m) {
      SCOPED_TRACE("member " + std::to_string(m));
      // Every member's view settles once the leader's heartbeats reached it.
      Exposition page("");
      EXPECT_TRUE(Eventually([&] {
        page = s.Scrape(m);
        return page.Value("ovn_raft_members", Db(db)) == 3.0 &&
               page.Value("ovn_raft_has_leader", Db(db)) == 1.0;
      })) << testing::ReadFile(s.exporter(m).log_path());
      EXPECT_EQ(page.Value("ovn_raft_up", Db(db)), 1.0);
      EXPECT_EQ(page.Value("ovn_raft_quorum_size", Db(db)), 2.0);
      const std::string role = m == leader ? "leader" : "follower";
      EXPECT_EQ(page.Value("ovn_raft_role", {{"db", RaftCluster::DbName(db)}, {"role", role}}),
                1.0);
      EXPECT_EQ(page.Label("ovn_raft_server_info", "server_id", Db(db)),
                s.cluster().ServerId(m, db));
      EXPECT_EQ(page.Label("ovn_raft_server_info", "address", Db(db)),
                "tcp:127.0.0." + std::to_string(m) + ":" + std::to_string(s.cluster().port(db)));
      EXPECT_EQ(page.All("ovn_raft_member_info", Db(db)).size(), 3u);
      EXPECT_GT(page.Value("ovn_raft_database_file_size_bytes", Db(db)).value_or(0), 0.0);
      cluster_ids.insert(page.Label("ovn_raft_server_info", "cluster_id", Db(db)));
      view_hashes.insert(page.Label("ovn_raft_view_info", "view_hash", Db(db)));
      // NB and SB are not on this host: nothing is read, or watched, for them.
      EXPECT_FALSE(page.Value("ovn_raft_up", Db("nb")).has_value());
      EXPECT_FALSE(page.Value("ovn_raft_up", Db("sb")).has_value());
    }
    EXPECT_EQ(cluster_ids.size(), 1u);
    EXPECT_EQ(view_hashes.size(), 1u) << "the members' views differ";
  }
  // The two databases are two clusters.
  EXPECT_NE(s.Scrape(1).Label("ovn_raft_server_info", "cluster_id", Db("ic_nb")),
            s.Scrape(1).Label("ovn_raft_server_info", "cluster_id", Db("ic_sb")));

  const std::string dir = s.cluster().MemberDir(2);
  const std::string log = testing::ReadFile(s.exporter(2).log_path());
  EXPECT_NE(log.find("msg=\"OVN database sockets found\" dir=" + dir +
                     " databases=OVN_IC_Northbound,OVN_IC_Southbound"),
            std::string::npos)
      << log;
  const std::string status = s.exporter(2).Get("/status").body;
  EXPECT_NE(status.find("\"found_in\":\"" + dir + "\""), std::string::npos) << status;
  EXPECT_NE(status.find("\"files_found_in\":\"" + dir + "\""), std::string::npos) << status;
  EXPECT_NE(status.find("\"ctl\":\"" + s.cluster().Ctl(2, "ic_sb") + "\""), std::string::npos)
      << status;
}

// A member down: its exporter says so for both databases; the others still see a leader and
// three members, one of them silent.
TEST(IcDatabasesIntegrationTest, AMemberDownIsSeenByEveryExporter) {
  IcServers s;
  const int down = s.cluster().Leader("ic_nb") == 3 ? 1 : 3;
  s.cluster().Kill(down);
  for (const std::string db : kIcDbs) {
    SCOPED_TRACE(db);
    EXPECT_TRUE(Eventually([&] { return s.Scrape(down).Value("ovn_raft_up", Db(db)) == 0.0; }));
    for (int m = 1; m <= 3; ++m) {
      if (m == down) continue;
      EXPECT_TRUE(Eventually([&] {
        const auto page = s.Scrape(m);
        return page.Value("ovn_raft_up", Db(db)) == 1.0 &&
               page.Value("ovn_raft_has_leader", Db(db)) == 1.0 &&
               page.Value("ovn_raft_members", Db(db)) == 3.0;
      })) << "member "
          << m;
    }
  }
}

// ovn-raft-report over the three exporters: one section per interconnection database, named as
// the exporters name it, each a healthy cluster of three whose views agree; no NB or SB.
TEST(IcDatabasesIntegrationTest, TheReportAnalysesThemLikeNbAndSb) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  IcServers s;
  std::vector<std::string> args{"--cluster.expected-members=3"};
  for (const auto& u : s.Urls()) args.push_back(u);
  ReportRun r;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  do {
    r = RunReport(args);
    if (r.exit == 0) break;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  } while (std::chrono::steady_clock::now() < deadline);
  SCOPED_TRACE(r.out + r.err);
  ASSERT_EQ(r.exit, 0);
  for (const std::string db : kIcDbs) {
    const std::string name = RaftCluster::DbName(db);
    const auto at = r.out.find("\n" + name + "\n");
    ASSERT_NE(at, std::string::npos) << name;
    const auto next = r.out.find("\nOVN_", at + 1);
    const std::string section = r.out.substr(at, next == std::string::npos ? next : next - at);
    EXPECT_NE(section.find("3 reporting; views all agree"), std::string::npos) << section;
    EXPECT_NE(section.find("verdict: healthy"), std::string::npos) << section;
  }
  EXPECT_EQ(r.out.find("\nOVN_Northbound\n"), std::string::npos);
  EXPECT_EQ(r.out.find("\nOVN_Southbound\n"), std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
