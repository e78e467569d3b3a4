// End to end: a real Prometheus scrapes three real exporters beside a real 3-member NB+SB
// cluster and evaluates alerts/. In every scenario the recording rules must reach the same
// verdicts as the C++ reference analysis (exporter/consensus.cc) fed the members' /status, and
// exactly the expected alerts must be pending or firing.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <set>
#include <sstream>
#include <thread>

#include "consensus.h"
#include "member_report.h"
#include "raft_cluster.h"
#include "support/exporter_process.h"
#include "support/prometheus_client.h"

namespace ovn_raft {
namespace {

using testing::ExporterProcess;
using testing::PrometheusQuery;
using testing::RaftCluster;

// What both sides say about one cluster, in a form that compares and prints.
struct Verdict {
  int reporters = 0, union_members = 0, leaders = 0, leader_ids = 0;
  bool agree = false, majority = false;
  std::map<std::string, int> silent;
  std::set<std::string> conflicting_hosts, suspects;
  bool operator==(const Verdict& o) const {
    return reporters == o.reporters && union_members == o.union_members && leaders == o.leaders &&
           leader_ids == o.leader_ids && agree == o.agree && majority == o.majority &&
           silent == o.silent && conflicting_hosts == o.conflicting_hosts && suspects == o.suspects;
  }
};
using Verdicts = std::map<std::string, Verdict>;  // "db/cluster_id" -> verdict

std::string Describe(const Verdicts& vs) {
  std::ostringstream o;
  for (const auto& [key, v] : vs) {
    o << key << ": reporters=" << v.reporters << " agree=" << v.agree << " majority=" << v.majority
      << " union=" << v.union_members << " leaders=" << v.leaders << " leader_ids=" << v.leader_ids
      << " silent={";
    for (const auto& [id, n] : v.silent) o << id << ":" << n << " ";
    o << "} conflicts={";
    for (const auto& h : v.conflicting_hosts) o << h << " ";
    o << "} suspects={";
    for (const auto& s : v.suspects) o << s << " ";
    o << "}\n";
  }
  return o.str();
}

class EndToEnd {
 public:
  EndToEnd() : cluster_(3) {
    for (int m = 1; m <= 3; ++m) StartExporter(m);
    prometheus_port_ = testing::FreePort();
    prometheus_dir_ = cluster_.dir() + "/prometheus";
    std::string command = std::string(OVN_RAFT_SCRIPTS_DIR) + "/prometheus-demo.sh start " +
                          prometheus_dir_ + " " + std::to_string(prometheus_port_);
    for (const auto& e : exporters_) command += " " + e->Url("");
    if (system(command.c_str()) != 0) throw std::runtime_error("prometheus did not start");
  }
  ~EndToEnd() {
    const std::string stop =
        std::string(OVN_RAFT_SCRIPTS_DIR) + "/prometheus-demo.sh stop " + prometheus_dir_;
    if (system(stop.c_str()) != 0) perror("stop prometheus");
  }

  void StartExporter(int m, int port = 0) {
    std::vector<std::string> args{"--min-interval=0", "--expected-members=3"};
    for (const std::string db : {"nb", "sb"}) {
      args.push_back("--database=" + RaftCluster::DbName(db) + "=" + cluster_.Ctl(m, db) + "," +
                     cluster_.Sock(m, db));
    }
    auto e = std::make_unique<ExporterProcess>(args, port);
    if (static_cast<int>(exporters_.size()) < m) {
      exporters_.push_back(std::move(e));
    } else {
      exporters_[m - 1] = std::move(e);
    }
  }
  void StopExporter(int m) {
    exporters_[m - 1]->Terminate();
    stopped_.insert(m);
  }
  void RestartExporter(int m) {
    StartExporter(m, exporters_[m - 1]->port());
    stopped_.erase(m);
  }
  RaftCluster& cluster() { return cluster_; }

  Verdicts Reference() const {
    std::map<std::string, std::vector<MemberReport>> by_db;
    for (int m = 1; m <= 3; ++m) {
      if (stopped_.count(m)) continue;
      const auto r = exporters_[m - 1]->Get("/status");
      for (auto& report : DecodeStatusJson(r.body, exporters_[m - 1]->Url(""))) {
        by_db[report.db].push_back(std::move(report));
      }
    }
    Verdicts out;
    for (const auto& [db, members] : by_db) {
      for (const auto& c : AnalyzeConsensus(members, 3)) {
        Verdict& v = out[db + "/" + c.cluster_id];
        v.reporters = static_cast<int>(c.reporters.size());
        v.agree = c.all_agree;
        v.majority = c.has_majority;
        v.union_members = static_cast<int>(c.union_members.size());
        v.silent = c.silent;
        for (const auto& [host, ids] : c.host_conflicts) v.conflicting_hosts.insert(host);
        v.suspects = c.stale_suspects;
        v.leaders = c.leaders;
        v.leader_ids = static_cast<int>(c.leader_ids.size());
      }
    }
    return out;
  }

  Verdicts Rules() const {
    Verdicts out;
    auto each = [&](const std::string& q, auto apply) {
      for (const auto& s : PrometheusQuery(prometheus_port_, q)) {
        apply(out[s.labels.at("db") + "/" + s.labels.at("cluster_id")], s);
      }
    };
    using S = testing::QuerySample;
    each("ovn_raft_cluster:reporters:count",
         [](Verdict& v, const S& s) { v.reporters = static_cast<int>(s.value); });
    each("ovn_raft_cluster:views_agree:bool",
         [](Verdict& v, const S& s) { v.agree = s.value == 1; });
    each("ovn_raft_cluster:majority_view:bool",
         [](Verdict& v, const S& s) { v.majority = s.value == 1; });
    each("ovn_raft_cluster:members_union:count",
         [](Verdict& v, const S& s) { v.union_members = static_cast<int>(s.value); });
    each("ovn_raft_cluster_member:silent:named_by", [](Verdict& v, const S& s) {
      v.silent[s.labels.at("member_id")] = static_cast<int>(s.value);
    });
    each("ovn_raft_cluster_host:member_ids:count > 1",
         [](Verdict& v, const S& s) { v.conflicting_hosts.insert(s.labels.at("host")); });
    each("ovn_raft_cluster_member:stale_suspect:named_by",
         [](Verdict& v, const S& s) { v.suspects.insert(s.labels.at("member_id")); });
    each("ovn_raft_cluster:leaders:count",
         [](Verdict& v, const S& s) { v.leaders = static_cast<int>(s.value); });
    each("ovn_raft_cluster:leader_ids:count",
         [](Verdict& v, const S& s) { v.leader_ids = static_cast<int>(s.value); });
    return out;
  }

  // Pending or firing alerts as "Name/db" ("Name/-" without a db label).
  std::set<std::string> Alerts() const {
    std::set<std::string> out;
    for (const auto& s : PrometheusQuery(prometheus_port_, "ALERTS")) {
      const auto db = s.labels.find("db");
      out.insert(s.labels.at("alertname") + "/" + (db == s.labels.end() ? "-" : db->second));
    }
    return out;
  }

  // Every dashboard query, its variables set to this cluster, returns data (or may be empty).
  void ExpectDashboardsShowData() const {
    const std::string command = std::string("/usr/bin/python3 ") + OVN_RAFT_SOURCE_DIR +
                                "/tests/dashboards/check_dashboards.py --queries";
    FILE* p = popen(command.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string lines;
    char buf[4096];
    while (fgets(buf, sizeof(buf), p)) lines += buf;
    ASSERT_EQ(pclose(p), 0) << lines;
    const auto ids =
        PrometheusQuery(prometheus_port_, "ovn_raft_server_info{db=\"OVN_Northbound\"}");
    ASSERT_FALSE(ids.empty());
    const std::string cluster_id = ids[0].labels.at("cluster_id");
    std::istringstream in(lines);
    int checked = 0;
    for (std::string line; std::getline(in, line);) {
      rapidjson::Document q;
      q.Parse(line.c_str());
      std::string expr = q["expr"].GetString();
      for (const auto& [var, value] :
           std::vector<std::pair<std::string, std::string>>{{"$__rate_interval", "1m"},
                                                            {"$namespace", "demo"},
                                                            {"$db", "OVN_Northbound"},
                                                            {"$cluster_id", cluster_id}}) {
        for (auto at = expr.find(var); at != std::string::npos; at = expr.find(var, at)) {
          expr.replace(at, var.size(), value);
        }
      }
      std::string error;
      const auto result = PrometheusQuery(prometheus_port_, expr, &error);
      EXPECT_TRUE(error.empty()) << q["panel"].GetString() << ": " << error;
      if (!q["may_be_empty"].GetBool()) {
        EXPECT_FALSE(result.empty()) << q["dashboard"].GetString() << " / "
                                     << q["panel"].GetString() << ": no data for " << expr;
      }
      ++checked;
    }
    EXPECT_GE(checked, 30);
  }

  // One recording rule's value per database ("OVN_Northbound" -> value).
  std::map<std::string, double> PerDb(const std::string& query) const {
    std::map<std::string, double> out;
    for (const auto& s : PrometheusQuery(prometheus_port_, query)) out[s.labels.at("db")] = s.value;
    return out;
  }
  void ExpectPerDb(const std::string& query, double value) const {
    EXPECT_EQ(PerDb(query),
              (std::map<std::string, double>{{"OVN_Northbound", value}, {"OVN_Southbound", value}}))
        << query;
  }

  // Waits until the rules agree with the reference and exactly `alerts` are active.
  void ExpectConverges(const std::set<std::string>& alerts, const std::string& scenario) {
    SCOPED_TRACE(scenario);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
    Verdicts reference, rules;
    std::set<std::string> active;
    while (std::chrono::steady_clock::now() < deadline) {
      reference = Reference();
      rules = Rules();
      active = Alerts();
      if (!reference.empty() && reference == rules && active == alerts) {
        std::string states;  // for the log: which of them fire already, which are pending
        for (const auto& a : PrometheusQuery(prometheus_port_, "ALERTS")) {
          const auto db = a.labels.find("db");
          states += " " + a.labels.at("alertname") + "/" +
                    (db == a.labels.end() ? "-" : db->second) + "=" + a.labels.at("alertstate");
        }
        std::printf("[ scenario ] %s:%s\n", scenario.c_str(),
                    states.empty() ? " none" : states.c_str());
        return;
      }
      std::this_thread::sleep_for(std::chrono::seconds(2));
    }
    EXPECT_EQ(Describe(rules), Describe(reference)) << "rules (left) vs reference (right)";
    std::string got, want;
    for (const auto& a : active) got += a + " ";
    for (const auto& a : alerts) want += a + " ";
    EXPECT_EQ(got, want) << "active alerts";
  }

 private:
  RaftCluster cluster_;
  std::vector<std::unique_ptr<ExporterProcess>> exporters_;
  std::set<int> stopped_;
  int prometheus_port_ = 0;
  std::string prometheus_dir_;
};

std::set<std::string> Both(std::initializer_list<const char*> names) {
  std::set<std::string> out;
  for (const char* n : names) {
    out.insert(std::string(n) + "/OVN_Northbound");
    out.insert(std::string(n) + "/OVN_Southbound");
  }
  return out;
}

std::set<std::string> Union(std::set<std::string> a, const std::set<std::string>& b) {
  a.insert(b.begin(), b.end());
  return a;
}

int Follower(RaftCluster& c) { return c.Leader("nb") == 3 ? 2 : 3; }

TEST(ConsensusEndToEndTest, HealthyThenFollowerKilledThenTwoKilled) {
  EndToEnd e;
  e.ExpectConverges({}, "healthy");
  e.ExpectPerDb("ovn_raft_cluster:failure_tolerance:count", 1);
  const int leader = e.cluster().Leader("nb");
  const int follower = Follower(e.cluster());
  e.cluster().Kill(follower);
  e.ExpectConverges(
      Both({"OVNRaftQuorumAtRisk", "OVNRaftMemberNotReporting", "OVNRaftDatabaseUnreadable"}),
      "a follower killed");
  e.cluster().Kill(leader);
  // The survivor answers, so it is alive (1 of a quorum of 2), and keeps starting elections
  // it cannot win: a campaign, not frequent elections (no leader is ever elected).
  e.ExpectConverges(
      Both({"OVNRaftQuorumLost", "OVNRaftNoLeader", "OVNRaftMemberNotReporting",
            "OVNRaftDatabaseUnreadable", "OVNRaftMemberDisconnected", "OVNRaftMemberCampaigning"}),
      "two members killed");
  e.ExpectPerDb("ovn_raft_cluster:live_members:count", 1);
  e.ExpectPerDb("ovn_raft_cluster:failure_tolerance:count", -1);
}

TEST(ConsensusEndToEndTest, LeaderKilled) {
  EndToEnd e;
  e.ExpectConverges({}, "healthy");
  e.cluster().Kill(e.cluster().Leader("nb"));
  e.ExpectConverges(
      Both({"OVNRaftQuorumAtRisk", "OVNRaftMemberNotReporting", "OVNRaftDatabaseUnreadable"}),
      "the leader killed");
}

TEST(ConsensusEndToEndTest, ExporterDownThenFreshRestart) {
  EndToEnd e;
  const int follower = Follower(e.cluster());
  e.StopExporter(follower);
  e.ExpectConverges(Union(Both({"OVNRaftMemberNotReporting"}), {"OVNRaftExporterDown/-"}),
                    "an exporter down, its database fine");
  e.RestartExporter(follower);
  e.ExpectConverges({}, "the exporter back");
  e.cluster().RestartFresh(follower);
  e.ExpectConverges(Both({"OVNRaftStaleMember", "OVNRaftHostClaimedByMultipleIDs",
                          "OVNRaftTooManyMembers", "OVNRaftQuorumAtRisk"}),
                    "a member restarted with a fresh database at the same address");
  std::this_thread::sleep_for(std::chrono::seconds(10));  // a few samples in every 1m range
  e.ExpectDashboardsShowData();
}

// The exporter of the leader (of NB; SB's may be another member) stops: its member is alive,
// and the cluster tolerates one failure as before. Only the exporter alerts may come.
TEST(ConsensusEndToEndTest, LeaderExporterDownIsNoQuorumRisk) {
  EndToEnd e;
  e.ExpectConverges({}, "healthy");
  const int leader = e.cluster().Leader("nb");
  e.StopExporter(leader);
  e.ExpectConverges(Union(Both({"OVNRaftMemberNotReporting"}), {"OVNRaftExporterDown/-"}),
                    "the leader's exporter down");
  e.ExpectPerDb("ovn_raft_cluster:live_members:count", 3);
  e.ExpectPerDb("ovn_raft_cluster:failure_tolerance:count", 1);
}

// A follower is firewalled off from its peers and healed: while cut off it campaigns alone
// (its term climbs, the majority keeps its leader) and the cluster tolerates no further
// failure; healed, everything clears, and the majority's one election is no "frequent" one.
TEST(ConsensusEndToEndTest, MemberCutOffThenHealed) {
  EndToEnd e;
  e.ExpectConverges({}, "healthy");
  const int cut = Follower(e.cluster());
  e.cluster().Cut(cut);
  e.ExpectConverges(
      Both({"OVNRaftMemberDisconnected", "OVNRaftMemberCampaigning", "OVNRaftQuorumAtRisk"}),
      "a follower cut off");
  e.ExpectPerDb("ovn_raft_cluster:live_members:count", 2);
  e.cluster().Heal();
  e.cluster().Wait();
  e.ExpectConverges({}, "healed");
  e.ExpectPerDb("ovn_raft_cluster:live_members:count", 3);
}

TEST(ConsensusEndToEndTest, MemberRecreatedAsItsOwnCluster) {
  EndToEnd e;
  e.cluster().Split(Follower(e.cluster()));
  e.ExpectConverges(Both({"OVNRaftClusterIDSplit", "OVNRaftMemberNotReporting",
                          "OVNRaftQuorumAtRisk", "OVNRaftTooFewMembers"}),
                    "a member re-created as a single-member cluster");
}

}  // namespace
}  // namespace ovn_raft
