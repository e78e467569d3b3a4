// End to end: a real Prometheus scrapes three real exporters beside a real 3-member NB+SB
// cluster and evaluates alerts/. In every scenario the recording rules must reach the same
// verdicts as the C++ reference analysis (consensus/consensus.cc) fed the members' /status, and
// exactly the expected alerts must be pending or firing.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

#include "consensus/consensus.h"
#include "consensus/member_report.h"
#include "raft_cluster.h"
#include "support/exporter_process.h"
#include "support/prometheus_client.h"
#include "support/test_paths.h"

namespace ovn_raft {
namespace {

using testing::ExporterProcess;
using testing::PolledQuery;
using testing::PrometheusQuery;
using testing::RaftCluster;

// What both sides say about one cluster, in a form that compares and prints.
struct Verdict {
  int reporters = 0, union_members = 0, leader_claims = 0, leader_ids = 0, leaders = 0;
  int quorum = 0;
  bool agree = false, majority = false;
  std::map<std::string, int> silent, suspect_scores;  // suspect_scores: the trimmed suspects'
  std::set<std::string> conflicting_hosts, suspects, undecided, alive, unheard;
  std::set<std::string> unexpected, missing_hosts;  // "ID@host"; hosts
  std::set<std::string> differences;                // "REPORTER lacks|lists|moves ID"
  bool operator==(const Verdict& o) const {
    return reporters == o.reporters && union_members == o.union_members &&
           leader_claims == o.leader_claims && leader_ids == o.leader_ids && leaders == o.leaders &&
           quorum == o.quorum && agree == o.agree && majority == o.majority && silent == o.silent &&
           conflicting_hosts == o.conflicting_hosts && suspects == o.suspects &&
           suspect_scores == o.suspect_scores && undecided == o.undecided && alive == o.alive &&
           unheard == o.unheard && unexpected == o.unexpected && missing_hosts == o.missing_hosts &&
           differences == o.differences;
  }
};
using Verdicts = std::map<std::string, Verdict>;  // "db/cluster_id" -> verdict

std::string Describe(const Verdicts& vs) {
  std::ostringstream o;
  for (const auto& [key, v] : vs) {
    o << key << ": reporters=" << v.reporters << " agree=" << v.agree << " majority=" << v.majority
      << " union=" << v.union_members << " leader_claims=" << v.leader_claims
      << " leader_ids=" << v.leader_ids << " leaders=" << v.leaders << " quorum=" << v.quorum
      << " alive={";
    for (const auto& id : v.alive) o << id << " ";
    o << "} unheard={";
    for (const auto& id : v.unheard) o << id << " ";
    o << "} silent={";
    for (const auto& [id, n] : v.silent) o << id << ":" << n << " ";
    o << "} conflicts={";
    for (const auto& h : v.conflicting_hosts) o << h << " ";
    o << "} suspects={";
    for (const auto& [id, score] : v.suspect_scores) o << id << ":" << score << " ";
    o << "} undecided={";
    for (const auto& id : v.undecided) o << id << " ";
    o << "} unexpected={";
    for (const auto& u : v.unexpected) o << u << " ";
    o << "} missing_hosts={";
    for (const auto& h : v.missing_hosts) o << h << " ";
    o << "} differences={";
    for (const auto& d : v.differences) o << d << "; ";
    o << "}\n";
  }
  return o.str();
}

// The alerts the scenarios watch: all but OVNRaftReleaseWithKnownRaftDefects, which fires for
// every cluster on an older release (the system's ovsdb-server among them) whatever the cluster
// does; alerts/tests/raft-defects-test.yaml tests it.
constexpr const char* kWatchedAlerts = "ALERTS{alertname!=\"OVNRaftReleaseWithKnownRaftDefects\"}";

class EndToEnd {
 public:
  // `flags` go to every exporter; `expected` is what the reference analysis is told (the same).
  // `for_speedup`: the alerts' for: durations divided by it, to watch a whole window.
  // `mixin_config`: a jsonnet object merged into the mixin's _config for the alerts, as a user
  // tunes them (no single quotes).
  explicit EndToEnd(std::vector<std::string> flags = {"--cluster.expected-members=3"},
                    ExpectedCluster expected = {3, {}}, int for_speedup = 1,
                    const std::string& mixin_config = "")
      : cluster_(3), flags_(std::move(flags)), expected_(std::move(expected)) {
    for (int m = 1; m <= 3; ++m) StartExporter(m);
    prometheus_port_ = testing::FreePort();
    prometheus_dir_ = cluster_.dir() + "/prometheus";
    std::string command = "OVN_RAFT_FOR_SPEEDUP=" + std::to_string(for_speedup) + " " +
                          "OVN_RAFT_MIXIN_CONFIG='" + mixin_config + "' " + testing::ScriptsDir() +
                          "/prometheus-demo.sh start " + prometheus_dir_ + " " +
                          std::to_string(prometheus_port_);
    for (const auto& e : exporters_) command += " " + e->Url("");
    if (system(command.c_str()) != 0) throw std::runtime_error("prometheus did not start");
  }
  ~EndToEnd() {
    const std::string stop = testing::ScriptsDir() + "/prometheus-demo.sh stop " + prometheus_dir_;
    if (system(stop.c_str()) != 0) perror("stop prometheus");
  }

  void StartExporter(int m, int port = 0) {
    std::vector<std::string> args{"--ovsdb.min-interval=0"};
    args.insert(args.end(), flags_.begin(), flags_.end());
    for (const std::string db : {"nb", "sb"}) {
      const auto file = files_.find({m, db});
      args.push_back("--ovsdb.database=" + RaftCluster::DbName(db) + "=" + cluster_.Ctl(m, db) +
                     "," + cluster_.Sock(m, db) + (file == files_.end() ? "" : "," + file->second));
    }
    auto e = std::make_unique<ExporterProcess>(args, port);
    if (static_cast<int>(exporters_.size()) < m) exporters_.resize(static_cast<std::size_t>(m));
    exporters_[static_cast<std::size_t>(m - 1)] = std::move(e);
    stopped_.erase(m);
  }
  void StopExporter(int m) {
    exporters_[m - 1]->Terminate();
    stopped_.insert(m);
  }
  void RestartExporter(int m) { StartExporter(m, exporters_[m - 1]->port()); }
  // Member m's exporter watches db's file at `path` from now on (restarted on its port).
  void WatchDatabaseFile(int m, const std::string& db, const std::string& path) {
    files_[{m, db}] = path;
    StopExporter(m);
    RestartExporter(m);
  }
  // Prometheus scrapes the running exporters only, as when a pod is gone with its node.
  void ScrapeRunningExportersOnly() {
    std::string command = testing::ScriptsDir() + "/prometheus-demo.sh retarget " + prometheus_dir_;
    for (std::size_t i = 0; i < exporters_.size(); ++i) {
      if (exporters_[i] && !stopped_.count(static_cast<int>(i) + 1)) {
        command += " " + exporters_[i]->Url("");
      }
    }
    if (system(command.c_str()) != 0) throw std::runtime_error("prometheus retarget failed");
  }
  RaftCluster& cluster() { return cluster_; }
  int port() const { return prometheus_port_; }
  std::vector<std::string> RunningUrls() const {
    std::vector<std::string> urls;
    for (std::size_t i = 0; i < exporters_.size(); ++i) {
      if (exporters_[i] && !stopped_.count(static_cast<int>(i) + 1)) {
        urls.push_back(exporters_[i]->Url(""));
      }
    }
    return urls;
  }

  Verdicts Reference() const {
    std::map<std::string, std::vector<MemberReport>> by_db;
    for (std::size_t i = 0; i < exporters_.size(); ++i) {
      if (!exporters_[i] || stopped_.count(static_cast<int>(i) + 1)) continue;
      const auto r = exporters_[i]->Get("/status");
      auto reports = DecodeStatusJson(r.body, exporters_[i]->Url(""));
      if (!reports) continue;  // an exporter restarting: the others still tell
      for (auto& report : reports.value()) by_db[report.db].push_back(std::move(report));
    }
    Verdicts out;
    for (const auto& [db, members] : by_db) {
      for (const auto& c : AnalyzeConsensus(members, expected_)) {
        Verdict& v = out[db + "/" + c.cluster_id];
        v.reporters = static_cast<int>(c.reporters.size());
        v.agree = c.all_agree;
        v.majority = c.has_majority;
        v.union_members = static_cast<int>(c.union_members.size());
        v.silent = c.silent;
        for (const auto& [host, ids] : c.host_conflicts) v.conflicting_hosts.insert(host);
        v.suspects = c.stale_suspects;
        for (const auto& id : c.stale_suspects) v.suspect_scores[id] = c.suspect_scores.at(id);
        v.undecided = c.undecided;
        v.alive = c.alive;
        for (const auto& [id, ago] : c.unheard) v.unheard.insert(id);
        v.quorum = c.quorum;
        for (const auto& [member, n] : c.unexpected_members) {
          v.unexpected.insert(member.first + "@" + HostOf(member.second));
        }
        v.missing_hosts = c.missing_hosts;
        for (const auto& [reporter, d] : c.differences) {
          for (const auto& id : d.missing) v.differences.insert(reporter + " lacks " + id);
          for (const auto& id : d.extra) v.differences.insert(reporter + " lists " + id);
          for (const auto& [id, a] : d.moved) v.differences.insert(reporter + " moves " + id);
        }
        v.leader_claims = c.leader_claims;
        v.leader_ids = static_cast<int>(c.leader_ids.size());
        v.leaders = v.leader_ids;  // the leaders the members know, claimed or followed
      }
    }
    return out;
  }

  Verdicts Rules() const {
    Verdicts out;
    auto each = [&](const std::string& q, auto apply) {
      for (const auto& s : PolledQuery(prometheus_port_, q)) {
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
    each("ovn_raft_cluster_member:stale_suspect:score", [](Verdict& v, const S& s) {
      v.suspect_scores[s.labels.at("member_id")] = static_cast<int>(s.value);
    });
    each("ovn_raft_cluster_member:unexpected_host:named_by", [](Verdict& v, const S& s) {
      v.unexpected.insert(s.labels.at("member_id") + "@" + s.labels.at("host"));
    });
    for (const auto& [what, says] : std::vector<std::pair<std::string, std::string>>{
             {"missing", " lacks "}, {"extra", " lists "}, {"moved", " moves "}}) {
      const std::string& verb = says;  // clang before 16 cannot capture a structured binding
      each("ovn_raft_cluster_reporter_member:" + what + ":info", [&](Verdict& v, const S& s) {
        v.differences.insert(s.labels.at("server_id") + verb + s.labels.at("member_id"));
      });
    }
    // Per database, not per cluster: an expected host no cluster of the database names.
    for (const auto& s : PolledQuery(prometheus_port_, "ovn_raft_db_host:missing_member:bool")) {
      for (auto& [key, v] : out) {
        if (key.rfind(s.labels.at("db") + "/", 0) == 0) v.missing_hosts.insert(s.labels.at("host"));
      }
    }
    each("ovn_raft_cluster:leader_claims:count",
         [](Verdict& v, const S& s) { v.leader_claims = static_cast<int>(s.value); });
    each("ovn_raft_cluster:leaders:count",
         [](Verdict& v, const S& s) { v.leaders = static_cast<int>(s.value); });
    each("ovn_raft_cluster:quorum:size",
         [](Verdict& v, const S& s) { v.quorum = static_cast<int>(s.value); });
    each("ovn_raft_cluster_member:alive:bool",
         [](Verdict& v, const S& s) { v.alive.insert(s.labels.at("member_id")); });
    // The reference tells only what one snapshot can: the leader has not heard from a member.
    each("ovn_raft_cluster_member:unheard:info{reason=\"not_heard\"}",
         [](Verdict& v, const S& s) { v.unheard.insert(s.labels.at("server_id")); });
    each("ovn_raft_cluster_member:stale_undecided:score",
         [](Verdict& v, const S& s) { v.undecided.insert(s.labels.at("member_id")); });
    each("ovn_raft_cluster:leader_ids:count",
         [](Verdict& v, const S& s) { v.leader_ids = static_cast<int>(s.value); });
    return out;
  }

  // Pending or firing alerts as "Name/db" ("Name/-" without a db label).
  std::set<std::string> Alerts() const {
    std::set<std::string> out;
    for (const auto& s : PolledQuery(prometheus_port_, kWatchedAlerts)) {
      const auto db = s.labels.find("db");
      out.insert(s.labels.at("alertname") + "/" + (db == s.labels.end() ? "-" : db->second));
    }
    return out;
  }

  // Every dashboard query, its variables set to this cluster, returns data (or may be empty).
  void ExpectDashboardsShowData() const {
    const std::string command = "/usr/bin/python3 " + testing::SourceDir() +
                                "/tests/dashboards/check_dashboards.py --queries";
    FILE* p = popen(command.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string lines;
    char buf[4096];
    while (fgets(buf, sizeof(buf), p)) lines += buf;
    ASSERT_EQ(pclose(p), 0) << lines;
    const auto answer =
        PrometheusQuery(prometheus_port_, "ovn_raft_server_info{db=\"OVN_Northbound\"}");
    ASSERT_TRUE(answer.ok()) << answer.error();
    const auto& ids = answer.value();
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
      const auto result = PrometheusQuery(prometheus_port_, expr);
      EXPECT_TRUE(result.ok()) << q["panel"].GetString() << ": " << result.error();
      if (result.ok() && !q["may_be_empty"].GetBool()) {
        EXPECT_FALSE(result.value().empty()) << q["dashboard"].GetString() << " / "
                                             << q["panel"].GetString() << ": no data for " << expr;
      }
      ++checked;
    }
    EXPECT_GE(checked, 30);
  }

  // One recording rule's value per database ("OVN_Northbound" -> value).
  std::map<std::string, double> PerDb(const std::string& query) const {
    std::map<std::string, double> out;
    for (const auto& s : PolledQuery(prometheus_port_, query)) out[s.labels.at("db")] = s.value;
    return out;
  }
  void ExpectPerDb(const std::string& query, double value) const {
    EXPECT_EQ(PerDb(query),
              (std::map<std::string, double>{{"OVN_Northbound", value}, {"OVN_Southbound", value}}))
        << query;
  }

  // How often db's leader changed as the rules saw it: the rise of its recorded leader term
  // since Prometheus started. OVNRaftFrequentElections counts those changes over 15 minutes,
  // which at a test's pace reach back to the cluster's forming, before any term a test reads.
  int RecordedElections(const std::string& db) const {
    const std::string term =
        "ovn_raft_cluster:leader_term:max{db=\"" + RaftCluster::DbName(db) + "\"}";
    double rise = 0;
    for (const auto& s :
         PolledQuery(prometheus_port_,
                     "max_over_time(" + term + "[1h]) - min_over_time(" + term + "[1h])")) {
      rise = std::max(rise, s.value);
    }
    return static_cast<int>(rise);
  }
  // OVNRaftFrequentElections for each database whose leader term really rose 3 times (the
  // alert's threshold): a scenario that changes leaders may raise it by its own definition, and
  // only then. (A rise is an upper bound: a member cut off without pre-vote raises its term
  // many times, and one election follows.)
  std::set<std::string> FrequentElections() const {
    std::set<std::string> out;
    for (const std::string db : {"nb", "sb"}) {
      if (RecordedElections(db) >= 3) {
        out.insert("OVNRaftFrequentElections/" + RaftCluster::DbName(db));
      }
    }
    return out;
  }

  // Waits until the rules agree with the reference and exactly `alerts` are active, besides
  // any of `maybe()` (alerts the scenario may or may not raise by their own definition), asked
  // again on every try: the rules record an election a scrape or two after the cluster holds it.
  void ExpectConverges(const std::set<std::string>& alerts, const std::string& scenario,
                       const std::function<std::set<std::string>()>& maybe = {}) {
    SCOPED_TRACE(scenario);
    // Long enough for a minute of history: an ID first named under a minute ago is never a
    // stale candidate.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(150);
    Verdicts reference, rules;
    std::set<std::string> active;
    while (std::chrono::steady_clock::now() < deadline) {
      reference = Reference();
      rules = Rules();
      active = Alerts();
      for (const auto& a : maybe ? maybe() : std::set<std::string>{}) {
        if (!alerts.count(a)) active.erase(a);
      }
      for (auto it = active.begin(); it != active.end();) {
        const std::string name = it->substr(0, it->find('/'));
        // A loaded test machine makes ovsdb-server answer late: a true stall, the scenario's
        // or not. An exporter down for less than the rules' five minutes leaves its member
        // not reporting (pending) beside OVNRaftExporterDown, by their definitions.
        const bool by_definition =
            (name == "OVNRaftServerStalled" ||
             (name == "OVNRaftMemberNotReporting" && alerts.count("OVNRaftExporterDown/-"))) &&
            !alerts.count(*it);
        it = by_definition ? active.erase(it) : std::next(it);
      }
      if (!reference.empty() && reference == rules && active == alerts) {
        std::string states;  // for the log: which of them fire already, which are pending
        for (const auto& a : PolledQuery(prometheus_port_, kWatchedAlerts)) {
          const auto db = a.labels.find("db");
          states += " " + a.labels.at("alertname") + "/" +
                    (db == a.labels.end() ? "-" : db->second) + "=" + a.labels.at("alertstate");
        }
        std::printf("[ scenario ] %s:%s\n%s", scenario.c_str(),
                    states.empty() ? " none" : states.c_str(), Describe(rules).c_str());
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
  std::vector<std::string> flags_;
  ExpectedCluster expected_;
  std::set<int> stopped_;
  std::map<std::pair<int, std::string>, std::string> files_;  // (member, db) -> database file
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

// A loaded test machine makes ovsdb-server answer late: OVNRaftServerStalled is then a true
// stall, whatever the scenario. Scenarios that do not stall a server on purpose leave it out of
// what they count.
std::set<std::string> WithoutStalls(std::set<std::string> alerts) {
  for (auto it = alerts.begin(); it != alerts.end();) {
    it = it->rfind("OVNRaftServerStalled/", 0) == 0 ? alerts.erase(it) : std::next(it);
  }
  return alerts;
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
  e.ExpectConverges({}, "healthy");  // every exporter scraped once: its identity is known
  const int follower = Follower(e.cluster());
  e.StopExporter(follower);
  // One fault, one page: the exporter being down explains its member's silence.
  e.ExpectConverges({"OVNRaftExporterDown/-"}, "an exporter down, its database fine");
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
  e.ExpectConverges({"OVNRaftExporterDown/-"}, "the leader's exporter down");
  e.ExpectPerDb("ovn_raft_cluster:live_members:count", 3);
  e.ExpectPerDb("ovn_raft_cluster:failure_tolerance:count", 1);
  // Its followers still name it: the cluster has a leader.
  e.ExpectPerDb("ovn_raft_cluster:leaders:count", 1);
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

// Seed 000's case: member 3's node is replaced. Its database is lost with it, a new member
// joins from the new node 127.0.0.4, and the operator's expected hosts (NODE_IPS) say so. The
// old ID on 127.0.0.3 must be the top stale suspect, on an unexpected host.
TEST(ConsensusEndToEndTest, NodeReplacedOldIdIsTheTopSuspect) {
  EndToEnd e({"--cluster.expected-hosts=127.0.0.1,127.0.0.2,127.0.0.4"},
             {3, {"127.0.0.1", "127.0.0.2", "127.0.0.4"}});
  e.cluster().Kill(3);
  e.StopExporter(3);
  e.cluster().Add(4);
  e.StartExporter(4);
  e.ScrapeRunningExportersOnly();
  e.ExpectConverges(Both({"OVNRaftMemberOnUnexpectedHost", "OVNRaftStaleMember",
                          "OVNRaftTooManyMembers", "OVNRaftQuorumAtRisk"}),
                    "member 3's node replaced by 127.0.0.4");
  e.ExpectPerDb("ovn_raft_cluster:unexpected_hosts:count", 1);
  e.ExpectPerDb(
      "count by (db) (ovn_raft_cluster_member:unexpected_host:named_by{host=\"127.0.0.3\"})", 1);
  e.ExpectPerDb(
      "count by (db) (ovn_raft_cluster_member:stale_suspect:named_by{host=\"127.0.0.3\"})", 1);
}

// A real view disagreement: member 3 is cut off while member 4 joins, so it keeps the old
// view (it lacks member 4); healed, it catches up and everything clears.
TEST(ConsensusEndToEndTest, ViewLeftBehindWhileCutOffThenHealed) {
  EndToEnd e({}, {});
  // No expected size anywhere: the deployment says its size checks are off throughout.
  const std::set<std::string> off{"OVNRaftExpectedSizeUnknown/-"};
  e.ExpectConverges(off, "healthy");
  e.cluster().Cut(3);
  e.cluster().Add(4);
  e.StartExporter(4);
  e.ScrapeRunningExportersOnly();
  e.ExpectConverges(
      Union(Both({"OVNRaftViewDiffersFromMajority", "OVNRaftMembershipViewsDisagree",
                  "OVNRaftMemberDisconnected", "OVNRaftMemberCampaigning", "OVNRaftQuorumAtRisk"}),
            off),
      "member 3 cut off while member 4 joined");
  e.ExpectPerDb("count by (db) (ovn_raft_cluster_reporter_member:missing:info)", 1);
  e.cluster().Heal();
  e.cluster().Wait();
  e.ExpectConverges(off, "healed");
}

TEST(ConsensusEndToEndTest, MemberRecreatedAsItsOwnCluster) {
  EndToEnd e;
  e.cluster().Split(Follower(e.cluster()));
  // The split-off cluster of one pages through OVNRaftClusterIDSplit alone: the quorum at
  // risk is the main cluster's (its third member is gone), and no "too few members".
  e.ExpectConverges(
      Both({"OVNRaftClusterIDSplit", "OVNRaftMemberNotReporting", "OVNRaftQuorumAtRisk"}),
      "a member re-created as a single-member cluster");
  e.ExpectPerDb("count by (db) (ALERTS{alertname=\"OVNRaftQuorumAtRisk\"})", 1);
}

// A member leaves NB's cluster on purpose (cluster/leave): ovsdb-server stops serving the
// database. Its exporter reports the state "left", not a read error; the cluster is smaller
// than expected and tolerates no further failure, which is true. The exporters have the host
// guides' setting (--cluster.expected-members=3): OVNRaftTooFewMembers fires (for: sped up 30
// times, 15m: 30 s).
TEST(ConsensusEndToEndTest, MemberLeftIsAStateNotAReadError) {
  EndToEnd e({"--cluster.expected-members=3"}, {3, {}}, 30);
  e.ExpectConverges({}, "healthy");
  const int m = Follower(e.cluster());
  e.cluster().Leave(m, "nb");
  const auto left = std::chrono::steady_clock::now();
  e.ExpectConverges({"OVNRaftQuorumAtRisk/OVN_Northbound", "OVNRaftTooFewMembers/OVN_Northbound"},
                    "a follower left NB's cluster");
  EXPECT_EQ(e.PerDb("count by (db) (ovn_raft_status{status=\"left\"} == 1)"),
            (std::map<std::string, double>{{"OVN_Northbound", 1}}));
  e.ExpectPerDb("min by (db) (ovn_raft_up)", 1);
  std::string state;
  while (state != "firing" && std::chrono::steady_clock::now() < left + std::chrono::seconds(90)) {
    for (const auto& a : PolledQuery(e.port(), "ALERTS{alertname=\"OVNRaftTooFewMembers\"}")) {
      EXPECT_EQ(a.labels.at("db"), "OVN_Northbound");
      state = a.labels.at("alertstate");
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  EXPECT_EQ(state, "firing");
  std::printf("[ scenario ] OVNRaftTooFewMembers %s %.0f s after member %d left NB\n",
              state.c_str(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - left).count(), m);
  EXPECT_EQ(e.Alerts().count("OVNRaftExpectedSizeUnknown/-"), 0u);
}

// A pod restart takes member 3's exporter down with its database, and the member
// rejoins with a fresh database under a new ID at the same address. Both IDs on that host are
// silent and named alike by the two reporting members; the leader hears the new one. From the
// restart until OVNRaftStaleMember fires (its for: window, sped up 20 times), the rules, the
// reference analysis and ovn-raft-report name the old ID only, and advise no kick of the new.
TEST(ConsensusEndToEndTest, ExporterDownDuringFreshRestartNamesOnlyTheOldId) {
  if (testing::ReportBinary().empty()) {
    GTEST_SKIP() << "built without ovn-raft-report (OVN_RAFT_BUILD_REPORT=OFF)";
  }
  EndToEnd e({"--cluster.expected-members=3"}, {3, {}}, 20);
  e.ExpectConverges({}, "healthy");
  const int m = Follower(e.cluster());
  std::map<std::string, std::string> old_id, new_id;  // db name -> short ID
  for (const std::string db : {"nb", "sb"})
    old_id[RaftCluster::DbName(db)] = e.cluster().ServerId(m, db);
  e.StopExporter(m);
  e.cluster().RestartFresh(m);
  e.cluster().Wait();
  for (const std::string db : {"nb", "sb"})
    new_id[RaftCluster::DbName(db)] = e.cluster().ServerId(m, db);
  for (const auto& [db, id] : old_id) {
    ASSERT_EQ(id.size(), 4u);
    ASSERT_NE(id, new_id[db]);
  }
  std::printf("[ scenario ] old IDs nb=%s sb=%s, new IDs nb=%s sb=%s\n",
              old_id["OVN_Northbound"].c_str(), old_id["OVN_Southbound"].c_str(),
              new_id["OVN_Northbound"].c_str(), new_id["OVN_Southbound"].c_str());

  std::string report_command = testing::ReportBinary() + " --cluster.expected-members=3";
  // Every exporter listens on 127.0.0.1: each URL bound to its member's host for the kick.
  const auto urls = e.RunningUrls();
  for (int n = 1, i = 0; n <= 3; ++n) {
    if (n == m) continue;
    const std::string& url = urls.at(static_cast<std::size_t>(i++));
    report_command += " --member=" + url + "=127.0.0." + std::to_string(n);
  }
  auto report = [&] {
    std::string out;
    FILE* p = popen(report_command.c_str(), "r");
    char buf[4096];
    while (p && fgets(buf, sizeof(buf), p)) out += buf;
    if (p) pclose(p);
    return out;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(240);
  int samples = 0, reports = 0;
  std::set<std::string> firing;
  while (firing.size() < 2 && std::chrono::steady_clock::now() < deadline) {
    ++samples;
    for (const auto& s : PolledQuery(e.port(), "ovn_raft_cluster_member:stale_suspect:score")) {
      EXPECT_EQ(s.labels.at("member_id"), old_id[s.labels.at("db")]) << "rules, sample " << samples;
    }
    for (const auto& a : PolledQuery(e.port(), "ALERTS{alertname=\"OVNRaftStaleMember\"}")) {
      const std::string db = a.labels.at("db");
      EXPECT_EQ(a.labels.at("member_id"), old_id[db]) << "alert, sample " << samples;
      if (a.labels.at("alertstate") == "firing") firing.insert(db);
    }
    for (const auto& [key, v] : e.Reference()) {
      for (const auto& id : v.suspects) {
        EXPECT_EQ(id, old_id[key.substr(0, key.find('/'))]) << "reference, sample " << samples;
      }
    }
    if (samples % 5 == 1) {
      ++reports;
      const std::string out = report();
      for (const auto& [db, id] : new_id) {
        EXPECT_EQ(out.find("cluster/kick " + db + " " + id), std::string::npos) << out;
      }
    }
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }
  std::printf("[ scenario ] %d samples of the rules, the alerts and the reference, %d reports\n",
              samples, reports);
  ASSERT_EQ(firing.size(), 2u) << "OVNRaftStaleMember did not fire for both databases";
  e.ExpectConverges(Union(Both({"OVNRaftStaleMember", "OVNRaftHostClaimedByMultipleIDs",
                                "OVNRaftTooManyMembers", "OVNRaftQuorumAtRisk"}),
                          {"OVNRaftExporterDown/-"}),
                    "fresh restart while the exporter was down");
  const std::string out = report();
  for (const auto& [db, id] : old_id) {
    EXPECT_NE(out.find("cluster/kick " + db + " " + id), std::string::npos) << out;
    EXPECT_EQ(out.find("cluster/kick " + db + " " + new_id[db]), std::string::npos) << out;
  }
  // 4 members in the leader's view (quorum 3), 3 alive: one more failure loses it.
  EXPECT_NE(out.find("verdict: at risk: 3 alive, quorum 3, tolerates 0 more failures"),
            std::string::npos)
      << out;
}

// Alert states over a whole test, sampled every second on a thread of its own: every change
// of every alert, with the seconds since the log began ("12.0s OVNRaftNoLeader/OVN_Northbound
// pending").
class AlertLog {
 public:
  explicit AlertLog(int prometheus_port)
      : port_(prometheus_port), start_(std::chrono::steady_clock::now()), thread_([this] {
          while (!stop_) {
            Sample();
            std::this_thread::sleep_for(std::chrono::seconds(1));
          }
        }) {}
  ~AlertLog() { Stop(); }
  void Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  // Marks a step in the log.
  void Note(const std::string& text) {
    const std::lock_guard<std::mutex> lock(mu_);
    lines_.push_back(Elapsed() + " -- " + text);
  }
  std::vector<std::string> lines() const {
    const std::lock_guard<std::mutex> lock(mu_);
    return lines_;
  }
  // Every "alert/db" seen in `state` ("pending", "firing").
  std::set<std::string> Seen(const std::string& state) const {
    const std::lock_guard<std::mutex> lock(mu_);
    return seen_.count(state) ? seen_.at(state) : std::set<std::string>{};
  }
  // When "alert/db" was first seen in `state`, if it was.
  std::optional<std::chrono::steady_clock::time_point> First(const std::string& alert,
                                                             const std::string& state) const {
    const std::lock_guard<std::mutex> lock(mu_);
    const auto it = first_.find({alert, state});
    if (it == first_.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::string Elapsed() const {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%6.1fs",
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
    return buf;
  }
  void Sample() {
    std::map<std::string, std::string> now;  // alert/db -> state
    for (const auto& a : PolledQuery(port_, kWatchedAlerts)) {
      const auto db = a.labels.find("db");
      now[a.labels.at("alertname") + "/" + (db == a.labels.end() ? "-" : db->second)] =
          a.labels.at("alertstate");
    }
    const std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [alert, state] : now) {
      seen_[state].insert(alert);
      first_.emplace(std::make_pair(alert, state), std::chrono::steady_clock::now());
      if (last_[alert] != state) lines_.push_back(Elapsed() + " " + alert + " " + state);
    }
    for (const auto& [alert, state] : last_) {
      if (!state.empty() && !now.count(alert)) lines_.push_back(Elapsed() + " " + alert + " clear");
    }
    last_.clear();
    for (const auto& [alert, state] : now) last_[alert] = state;
  }

  int port_;
  std::chrono::steady_clock::time_point start_;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::vector<std::string> lines_;
  std::map<std::pair<std::string, std::string>, std::chrono::steady_clock::time_point> first_;
  std::map<std::string, std::string> last_;
  std::map<std::string, std::set<std::string>> seen_;
  std::thread thread_;
};

// The releases of a rolling upgrade, oldest first, from OVN_RAFT_UPGRADE_PATH
// ("3.1.0=DIR 3.5.0=DIR 4.0.0=DIR", each DIR from scripts/ovs-versions.sh bin VERSION).
std::vector<std::pair<std::string, std::string>> UpgradePath() {
  std::vector<std::pair<std::string, std::string>> out;
  const char* env = std::getenv("OVN_RAFT_UPGRADE_PATH");
  std::istringstream in(env ? env : "");
  for (std::string item; in >> item;) {
    const auto eq = item.find('=');
    if (eq != std::string::npos) out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return out;
}

// Operators upgrade one member at a time, on its existing database, the leader last: the
// cluster then runs several releases at once, for minutes to days. Every member goes through
// every release given, oldest first; the real exporters and the real Prometheus with the
// shipped rules watch throughout. The for: durations run 5 times faster, so that anything a
// restart leaves behind for long has time to fire.
TEST(ConsensusEndToEndTest, RollingUpgradeAcrossReleases) {
  const auto path = UpgradePath();
  ASSERT_GE(path.size(), 2u) << "OVN_RAFT_UPGRADE_PATH names fewer than two releases; run "
                                "`ctest -L upgrade`, which sets it from scripts/ovs-versions.sh";
  setenv("OVS_BIN_DIR", path[0].second.c_str(), 1);  // the cluster starts on the oldest
  EndToEnd e({"--cluster.expected-members=3"}, {3, {}}, 5);
  AlertLog log(e.port());
  std::map<int, std::string> release{{1, path[0].first}, {2, path[0].first}, {3, path[0].first}};

  // Each member's release, as the rules say it and as its exporter's /status says it.
  auto expect_releases = [&](const std::string& step) {
    SCOPED_TRACE(step);
    std::map<std::string, std::string> want, rules, status;
    for (const auto& [m, version] : release) {
      for (const std::string db : {"nb", "sb"}) {
        want[RaftCluster::DbName(db) + "/" + e.cluster().ServerId(m, db)] = version;
      }
    }
    for (const auto& s : PolledQuery(e.port(), "ovn_raft_cluster_member:ovs_version:info")) {
      rules[s.labels.at("db") + "/" + s.labels.at("server_id")] = s.labels.at("version");
    }
    for (const auto& url : e.RunningUrls()) {
      const auto reports = DecodeStatusJson(testing::HttpGet(url + "/status").body, url);
      if (!reports) continue;
      for (const auto& r : reports.value()) status[r.db + "/" + r.server_id] = r.ovs_version;
    }
    EXPECT_EQ(rules, want);
    EXPECT_EQ(status, want);
    std::set<std::string> releases;
    for (const auto& [m, version] : release) releases.insert(version);
    e.ExpectPerDb("ovn_raft_cluster:ovs_versions:count", static_cast<double>(releases.size()));
  };
  // Mixed releases are pending from the first mixed evaluation, firing only after 12h.
  auto mixed = [&] {
    std::set<std::string> versions;
    for (const auto& [m, version] : release) versions.insert(version);
    return versions.size() > 1 ? Both({"OVNRaftMixedReleases"}) : std::set<std::string>{};
  };
  const auto frequent = [&] { return e.FrequentElections(); };
  auto converge = [&](const std::string& step) {
    log.Note(step);
    // Every leader change of the upgrade falls within OVNRaftFrequentElections' window at this
    // pace, so a database whose leader changed 3 times may raise it (which members happen to
    // lead NB and SB is chance, and only the NB leader is restarted last).
    e.ExpectConverges(mixed(), step, frequent);
    // The rules read a scrape or two behind the exporters: wait for the release to show.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      std::map<std::string, std::string> rules;
      for (const auto& s : PolledQuery(e.port(), "ovn_raft_cluster_member:ovs_version:info")) {
        rules[s.labels.at("db") + "/" + s.labels.at("server_id")] = s.labels.at("version");
      }
      std::set<std::string> seen;
      for (const auto& [key, version] : rules) seen.insert(version);
      std::set<std::string> want;
      for (const auto& [m, version] : release) want.insert(version);
      if (rules.size() == 6 && seen == want) break;
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    expect_releases(step);
  };

  converge("every member on " + path[0].first);
  bool dashboards_checked = false;
  for (std::size_t r = 1; r < path.size(); ++r) {
    const auto& [version, dir] = path[r];
    std::vector<int> order;
    const int leader = e.cluster().Leader("nb");
    for (int m = 1; m <= 3; ++m) {
      if (m != leader) order.push_back(m);
    }
    order.push_back(leader);
    for (const int m : order) {
      // The leader's pod is replaced whole, its exporter with it; the others' ovsdb-server
      // alone restarts under a running exporter, which must notice the new release.
      const bool whole_pod = m == leader;
      if (whole_pod) e.StopExporter(m);
      e.cluster().Restart(m, dir);
      if (whole_pod) e.RestartExporter(m);
      release[m] = version;
      e.cluster().Wait();
      converge("member " + std::to_string(m) + (m == leader ? " (the leader)" : "") + " on " +
               version + (whole_pod ? ", its exporter restarted too" : ""));
      if (!dashboards_checked && mixed().size() > 0) {
        std::this_thread::sleep_for(std::chrono::seconds(10));  // samples in every 1m range
        e.ExpectDashboardsShowData();
        dashboards_checked = true;
      }
    }
  }
  log.Stop();

  // Throughout: every line of every release's cluster/status understood, no reply refused.
  const auto warnings = PrometheusQuery(e.port(), "max_over_time(ovn_raft_parse_warnings[1h])");
  ASSERT_TRUE(warnings.ok()) << warnings.error();
  EXPECT_FALSE(warnings.value().empty());  // every member's, not none
  for (const auto& s : warnings.value()) {
    EXPECT_EQ(s.value, 0) << s.labels.at("instance") << " " << s.labels.at("db");
  }
  const std::string refused =
      "max_over_time(ovn_raft_exporter_errors_total{reason=~"
      "\"invalid_json|rpc_error|protocol_error|not_clustered|view_too_large|reply_too_large\"}[1h])"
      " > 0";
  const auto refusals = PrometheusQuery(e.port(), refused);
  ASSERT_TRUE(refusals.ok()) << refusals.error();
  EXPECT_TRUE(refusals.value().empty()) << refused;

  // Alerts: none fired; pending only what a member restart causes while it lasts (its
  // database unreadable and silent for seconds, one member fewer, an election when the
  // leader goes, with a member a candidate if a scrape catches it) and the mix of releases itself.
  // A restarted member is rejoining, never unheard, however its scrapes and the leader's fall.
  std::printf("[ alerts   ] %s\n", "states logged during the upgrade:");
  for (const auto& line : log.lines()) std::printf("[ alerts   ] %s\n", line.c_str());
  // OVNRaftFrequentElections may fire, but only for a database whose leader term really rose
  // 3 times.
  for (const std::string db : {"nb", "sb"}) {
    std::printf("[ alerts   ] %s: %d elections\n", RaftCluster::DbName(db).c_str(),
                e.RecordedElections(db));
  }
  const auto maybe = frequent();
  auto firing = WithoutStalls(log.Seen("firing"));
  for (const auto& a : maybe) firing.erase(a);
  EXPECT_EQ(firing, std::set<std::string>{});
  const auto allowed =
      Union(Both({"OVNRaftMixedReleases", "OVNRaftDatabaseUnreadable", "OVNRaftMemberNotReporting",
                  "OVNRaftQuorumAtRisk", "OVNRaftNoLeader", "OVNRaftMemberCampaigning",
                  "OVNRaftMemberDisconnected", "OVNRaftMembershipViewsDisagree",
                  "OVNRaftLeaderDisagreement"}),
            {"OVNRaftExporterDown/-"});
  for (const auto& alert : WithoutStalls(log.Seen("pending"))) {
    EXPECT_TRUE(allowed.count(alert) || maybe.count(alert))
        << alert << " went pending during the upgrade";
  }
  unsetenv("OVS_BIN_DIR");
}

// The leader's disk fills up (its NB database alone on a small tmpfs, filled through it): it
// enters failure mode and says so (Status: failed), keeps saying it leads, and the others elect
// a new leader. Its exporter, the rules and OVNRaftMemberFailed name it, with no leader claim
// or leader disagreement from its frozen word; the others' exporters keep the cluster's view
// right. Space freed and the member restarted on its database, everything clears. The for:
// durations run 5 times faster, so that the alert fires within the test.
TEST(ConsensusEndToEndTest, LeaderDiskFullFailsThenRecovers) {
  EndToEnd e({"--cluster.expected-members=3"}, {3, {}}, 5);
  const int m = Follower(e.cluster());
  e.cluster().Disk(m, "nb", "128k");
  e.cluster().Wait();
  e.cluster().Lead(m, "nb");
  const std::string failed_id = e.cluster().ServerId(m, "nb");
  // Making member m lead takes one election or several (the leaders are frozen in turn), and
  // the failure another: 3 leader changes within the window are frequent elections by the
  // alert's own definition. So it may fire, but only once the term really rose 3 times.
  const auto frequent = [&] { return e.FrequentElections(); };
  e.ExpectConverges({}, "member " + std::to_string(m) + " leads NB on a 128 KiB disk", frequent);
  AlertLog log(e.port());

  log.Note("writes through member " + std::to_string(m) + " until its disk is full");
  e.cluster().Fill(m, "nb");
  // The failed member, by its reason; the alert fires; one member down of three.
  e.ExpectConverges({"OVNRaftMemberFailed/OVN_Northbound", "OVNRaftQuorumAtRisk/OVN_Northbound"},
                    "member " + std::to_string(m) + " failed on a full disk", frequent);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::string state;
  while (state != "firing" && std::chrono::steady_clock::now() < deadline) {
    for (const auto& a : PolledQuery(e.port(), "ALERTS{alertname=\"OVNRaftMemberFailed\"}")) {
      EXPECT_EQ(a.labels.at("server_id"), failed_id);
      EXPECT_EQ(a.labels.at("reason"), "io_error");
      state = a.labels.at("alertstate");
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  EXPECT_EQ(state, "firing");
  const auto answer = PrometheusQuery(e.port(), "ovn_raft_cluster_member:storage_failed:info");
  ASSERT_TRUE(answer.ok()) << answer.error();
  const auto& failed = answer.value();
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].labels.at("server_id"), failed_id);
  EXPECT_EQ(failed[0].labels.at("db"), "OVN_Northbound");
  // One leader, the new one: not the failed member, whose role still says leader.
  e.ExpectPerDb("ovn_raft_cluster:leader_claims:count", 1);
  e.ExpectPerDb("ovn_raft_cluster:leader_ids:count", 1);
  const int leader = e.cluster().Leader("nb");
  EXPECT_NE(leader, m);
  EXPECT_NE(leader, 0);
  // Its exporter: failed, and the storage status that does not see write errors still ok.
  const auto page = testing::HttpGet(e.RunningUrls()[static_cast<std::size_t>(m - 1)] + "/metrics");
  EXPECT_NE(page.body.find("ovn_raft_status{db=\"OVN_Northbound\",status=\"failed\"} 1"),
            std::string::npos);
  EXPECT_NE(page.body.find("ovn_raft_role{db=\"OVN_Northbound\",role=\"leader\"} 1"),
            std::string::npos);
  EXPECT_NE(page.body.find("ovn_raft_storage_ok{db=\"OVN_Northbound\"} 1"), std::string::npos);

  log.Note("the volume grown to 4 MiB, member " + std::to_string(m) + " restarted on its database");
  e.cluster().Disk(m, "nb", "4m");
  e.cluster().Restart(m);
  e.cluster().Wait();
  EXPECT_EQ(e.cluster().ServerId(m, "nb"), failed_id);  // the same member, not a new ID
  e.ExpectConverges({}, "member " + std::to_string(m) + " restarted after space was freed",
                    frequent);
  log.Stop();
  std::printf("[ alerts   ] %s\n", "states logged from the fill to the recovery:");
  for (const auto& line : log.lines()) std::printf("[ alerts   ] %s\n", line.c_str());
  const auto maybe = frequent();
  std::printf("[ alerts   ] OVN_Northbound: %d elections\n", e.RecordedElections("nb"));
  auto firing = WithoutStalls(log.Seen("firing"));
  for (const auto& a : maybe) firing.erase(a);
  EXPECT_EQ(firing, std::set<std::string>{"OVNRaftMemberFailed/OVN_Northbound"});
  // Pending besides: one member fewer, and what the election and the restart cause while they
  // last (scrapes taken either side of the election: two members seen leading, or followers
  // naming different leaders, for an evaluation or two, or a member caught a candidate; the
  // restarted member is silent, then rejoining). Unheard may go pending, never firing, for the
  // evaluations in which the failed member's newest scrape still predates its failure while the new
  // leader no longer hears it: on a loaded machine a scrape can lag the failure by a few seconds.
  const std::set<std::string> allowed =
      Union(Both({"OVNRaftDatabaseUnreadable", "OVNRaftMemberNotReporting", "OVNRaftQuorumAtRisk"}),
            {"OVNRaftMemberFailed/OVN_Northbound", "OVNRaftLeaderDisagreement/OVN_Northbound",
             "OVNRaftMultipleLeaders/OVN_Northbound", "OVNRaftNoLeader/OVN_Northbound",
             "OVNRaftMemberCampaigning/OVN_Northbound", "OVNRaftMemberUnheard/OVN_Northbound"});
  for (const auto& alert : WithoutStalls(log.Seen("pending"))) {
    EXPECT_TRUE(allowed.count(alert) || maybe.count(alert)) << alert << " went pending";
  }
}

// A follower's disk fills up (its NB database alone on a small tmpfs, written through the
// leader): unlike a leader it does not enter failure mode. It keeps running and its own
// exporter reads a healthy follower, while the leader stops hearing it. OVNRaftMemberUnheard
// names it, with for: as shipped, within 2 minutes of the leader's losing it, and
// ovn-raft-report names it; growing the volume does not heal it, a restart does. Its exporter
// watches the database file: OVNRaftDatabaseFilesystemFillingUp, with its trend window and for:
// shortened to the test's scale through the mixin's config, fires before the member fails.
TEST(ConsensusEndToEndTest, FollowerDiskFullIsUnheardUntilRestarted) {
  if (testing::ReportBinary().empty()) {
    GTEST_SKIP() << "built without ovn-raft-report (OVN_RAFT_BUILD_REPORT=OFF)";
  }
  EndToEnd e({"--cluster.expected-members=3"}, {3, {}}, 1,
             "{filesystemPredictWindow: \"30s\", filesystemFillingUpFor: \"4s\"}");
  const int m = Follower(e.cluster());
  e.cluster().Disk(m, "nb", "128k");
  e.cluster().Wait();
  e.WatchDatabaseFile(m, "nb", e.cluster().dir() + "/m" + std::to_string(m) + "/disk-nb/nb.db");
  const std::string id = e.cluster().ServerId(m, "nb");
  ASSERT_EQ(id.size(), 4u);
  e.ExpectConverges({}, "member " + std::to_string(m) + "'s NB on a 128 KiB disk");
  ASSERT_NE(e.cluster().Leader("nb"), m);
  // The file and its filesystem, as Prometheus has them from the member's exporter.
  const auto filesystem = [&] {
    std::map<std::string, double> got;
    for (const std::string metric :
         {"ovn_raft_database_file_size_bytes", "ovn_raft_database_filesystem_avail_bytes",
          "ovn_raft_database_filesystem_size_bytes"}) {
      const auto answer = PrometheusQuery(e.port(), metric + "{db=\"OVN_Northbound\"}");
      if (answer.ok() && answer.value().size() == 1) got[metric] = answer.value()[0].value;
    }
    std::printf(
        "[ scenario ] member %d's NB file %.0f bytes, its filesystem %.0f of %.0f bytes free\n", m,
        got["ovn_raft_database_file_size_bytes"], got["ovn_raft_database_filesystem_avail_bytes"],
        got["ovn_raft_database_filesystem_size_bytes"]);
    return got;
  };
  const auto before = filesystem();
  EXPECT_EQ(before.size(), 3u) << "one series each, from member " << m << "'s exporter alone";
  EXPECT_EQ(before.at("ovn_raft_database_filesystem_size_bytes"), 128 * 1024);
  EXPECT_GT(before.at("ovn_raft_database_file_size_bytes"), 0);
  EXPECT_LE(before.at("ovn_raft_database_file_size_bytes") +
                before.at("ovn_raft_database_filesystem_avail_bytes"),
            128 * 1024);
  AlertLog log(e.port());
  log.Note("writes through the leader until it stops hearing member " + std::to_string(m));
  e.cluster().FillFollower(m, "nb", "0.1");  // about a minute, as a disk fills over time
  const auto failed_at = std::chrono::steady_clock::now();
  log.Note("the leader has not heard member " + std::to_string(m) + " for 3 s");
  const auto full = filesystem();
  EXPECT_LT(full.at("ovn_raft_database_filesystem_avail_bytes"),
            before.at("ovn_raft_database_filesystem_avail_bytes"));
  // The warning came before the failure: the leader last heard the member 3 s before failed_at.
  const auto warned = log.First("OVNRaftDatabaseFilesystemFillingUp/OVN_Northbound", "firing");
  ASSERT_TRUE(warned) << "OVNRaftDatabaseFilesystemFillingUp never fired before the failure";
  std::printf(
      "[ scenario ] OVNRaftDatabaseFilesystemFillingUp fired %.0f s before the leader lost member "
      "%d\n",
      std::chrono::duration<double>(failed_at - std::chrono::seconds(3) - *warned).count(), m);
  EXPECT_LT(*warned, failed_at - std::chrono::seconds(3));
  std::string state;
  while (state != "firing" &&
         std::chrono::steady_clock::now() < failed_at + std::chrono::seconds(150)) {
    for (const auto& a : PolledQuery(e.port(), "ALERTS{alertname=\"OVNRaftMemberUnheard\"}")) {
      EXPECT_EQ(a.labels.at("server_id"), id);
      EXPECT_EQ(a.labels.at("db"), "OVN_Northbound");
      state = a.labels.at("alertstate");
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - failed_at).count();
  std::printf("[ scenario ] OVNRaftMemberUnheard %s for %s %.0f s after the leader lost it\n",
              state.c_str(), id.c_str(), seconds);
  EXPECT_EQ(state, "firing");
  EXPECT_LE(seconds, 120.0);
  // Its own exporter: a healthy follower.
  const auto page = testing::HttpGet(e.RunningUrls()[static_cast<std::size_t>(m - 1)] + "/metrics");
  EXPECT_NE(page.body.find("ovn_raft_status{db=\"OVN_Northbound\",status=\"cluster_member\"} 1"),
            std::string::npos);
  EXPECT_NE(page.body.find("ovn_raft_role{db=\"OVN_Northbound\",role=\"follower\"} 1"),
            std::string::npos);
  // The disk stays full: OVNRaftDatabaseFilesystemAlmostFull pending, for: 5m as shipped.
  e.ExpectConverges({"OVNRaftMemberUnheard/OVN_Northbound", "OVNRaftQuorumAtRisk/OVN_Northbound",
                     "OVNRaftDatabaseFilesystemAlmostFull/OVN_Northbound"},
                    "member " + std::to_string(m) + " unheard on a full disk");
  std::string report_command = testing::ReportBinary();
  for (const auto& url : e.RunningUrls()) report_command += " " + url;
  std::string out;
  FILE* p = popen(report_command.c_str(), "r");
  char buf[4096];
  while (p && fgets(buf, sizeof(buf), p)) out += buf;
  const int status = p ? pclose(p) : -1;
  std::printf("%s", out.c_str());
  EXPECT_NE(out.find("UNHEARD: " + id + " calls itself a cluster member"), std::string::npos)
      << out;
  EXPECT_NE(out.find("full or read-only disk"), std::string::npos) << out;
  EXPECT_NE(status, 0);

  log.Note("the volume grown to 4 MiB");
  e.cluster().Disk(m, "nb", "4m");
  std::this_thread::sleep_for(std::chrono::seconds(20));
  EXPECT_EQ(e.Alerts().count("OVNRaftMemberUnheard/OVN_Northbound"), 1u)
      << "a grown volume alone healed the member";
  log.Note("member " + std::to_string(m) + " restarted on its database");
  e.cluster().Restart(m);
  e.cluster().Wait();
  EXPECT_EQ(e.cluster().ServerId(m, "nb"), id);  // the same member, not a new ID
  e.ExpectConverges({}, "member " + std::to_string(m) + " restarted after the volume grew");
  log.Stop();
  for (const auto& line : log.lines()) std::printf("[ alerts   ] %s\n", line.c_str());
  EXPECT_EQ(WithoutStalls(log.Seen("firing")),
            (std::set<std::string>{"OVNRaftMemberUnheard/OVN_Northbound",
                                   "OVNRaftDatabaseFilesystemFillingUp/OVN_Northbound"}));
  // Pending besides: one member fewer while unheard, what its restart causes, and the full disk.
  const std::set<std::string> allowed =
      Union(Both({"OVNRaftDatabaseUnreadable", "OVNRaftMemberNotReporting", "OVNRaftQuorumAtRisk"}),
            {"OVNRaftMemberUnheard/OVN_Northbound", "OVNRaftFollowerLagging/OVN_Northbound",
             "OVNRaftDatabaseFilesystemFillingUp/OVN_Northbound",
             "OVNRaftDatabaseFilesystemAlmostFull/OVN_Northbound"});
  for (const auto& alert : WithoutStalls(log.Seen("pending"))) {
    EXPECT_TRUE(allowed.count(alert)) << alert << " went pending";
  }
}

// A follower whose disk syncs slowly, under a steady write load: the leader still hears it and
// it still votes, so no other alert names it, but it trails the leader's log at nearly every
// read while its peer is caught up. First the same load without the fault, for longer than
// the rules' window: nobody is named slow. Then every fsync of the follower's NB server returns
// half a second late (strace): OVNRaftMemberSlow, with its for: as shipped, names it, and only
// it, within 2 minutes.
TEST(ConsensusEndToEndTest, SlowFollowerDiskIsNamedSlowOnlyThen) {
  EndToEnd e;
  const int m = Follower(e.cluster());
  const std::string id = e.cluster().ServerId(m, "nb");
  ASSERT_EQ(id.size(), 4u);
  std::thread load([&] { e.cluster().Load("nb", 300, "0.05"); });
  struct Unload {
    EndToEnd& e;
    std::thread& t;
    ~Unload() {
      e.cluster().Unload();
      t.join();
    }
  } unload{e, load};
  // The lags the rules compare, as "ID=median" of each follower, for the log.
  const auto medians = [&] {
    std::string out;
    for (const auto& s : PolledQuery(
             e.port(), "ovn_raft_cluster_member:follower_lag:median{db=\"OVN_Northbound\"}")) {
      out += " " + s.labels.at("member_id") + "=" + std::to_string(s.value).substr(0, 4);
    }
    return out;
  };
  const auto named = [&](const std::string& what) {
    std::set<std::string> out;
    for (const auto& s : PolledQuery(e.port(), what)) out.insert(s.labels.at("member_id"));
    return out;
  };
  const auto quiet_until = std::chrono::steady_clock::now() + std::chrono::seconds(62);
  int samples = 0;
  std::string last;
  while (std::chrono::steady_clock::now() < quiet_until) {
    ++samples;
    EXPECT_EQ(named("ovn_raft_cluster_member:slow:lag_entries"), std::set<std::string>{})
        << "named slow without a fault, sample " << samples << ":" << medians();
    EXPECT_EQ(named("ALERTS{alertname=\"OVNRaftMemberSlow\"}"), std::set<std::string>{})
        << "alert without a fault, sample " << samples;
    if (samples % 10 == 0) last = medians();
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }
  std::printf(
      "[ scenario ] no fault, under writes: nobody named slow in %d samples over 62 s "
      "(median lags:%s)\n",
      samples, last.c_str());

  e.cluster().SlowDisk(m, "nb", 500000);
  const auto slowed = std::chrono::steady_clock::now();
  std::string state;
  while (state != "firing" &&
         std::chrono::steady_clock::now() < slowed + std::chrono::seconds(150)) {
    for (const auto& a : PolledQuery(e.port(), "ALERTS{alertname=\"OVNRaftMemberSlow\"}")) {
      EXPECT_EQ(a.labels.at("member_id"), id);
      EXPECT_EQ(a.labels.at("db"), "OVN_Northbound");
      state = a.labels.at("alertstate");
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - slowed).count();
  std::printf(
      "[ scenario ] fsync of member %d (%s) 500 ms late: OVNRaftMemberSlow %s after %.0f s "
      "(median lags:%s)\n",
      m, id.c_str(), state.empty() ? "silent" : state.c_str(), seconds, medians().c_str());
  EXPECT_EQ(state, "firing");
  EXPECT_LE(seconds, 120.0);
  // The leader still hears it: slow, not unheard.
  EXPECT_EQ(named("ovn_raft_cluster_member:leader_unheard:info"), std::set<std::string>{});
  e.cluster().FastDisk(m, "nb");
}

// A leader that stops gracefully hands its leadership over (the path a leader about to write a
// snapshot takes too): the new leader's last election shows reason="leadership_transfer", the
// rules count one transfer for it and keep counting one while its exporter's timestamp
// jitters from read to read, OVNRaftFrequentLeadershipTransfers (its threshold lowered to one
// for the test) fires, and OVNRaftFrequentElections (lowered to one leader change) does not:
// the change was a transfer, not an election by timeout.
TEST(ConsensusEndToEndTest, LeadershipTransferIsCountedApartFromElections) {
  EndToEnd e({"--cluster.expected-members=3"}, {3, {}}, 1,
             "{leadershipTransfersThreshold: 1, leadershipTransfersFor: \"4s\", "
             "leaderChangesThreshold: 1}");
  const int old_leader = e.cluster().Leader("sb");
  ASSERT_NE(old_leader, 0);
  const std::string term = "ovn_raft_cluster:leader_term:max{db=\"OVN_Southbound\"}";
  auto before = PolledQuery(e.port(), term);
  for (int i = 0; i < 60 && before.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    before = PolledQuery(e.port(), term);
  }
  ASSERT_EQ(before.size(), 1u);
  e.cluster().Shutdown(old_leader, "sb");
  e.cluster().RestartDatabase(old_leader, "sb");
  e.cluster().Wait();
  const int leader = e.cluster().Leader("sb");
  ASSERT_NE(leader, 0);
  ASSERT_NE(leader, old_leader);
  const std::string id = e.cluster().ServerId(leader, "sb");
  const std::string counted =
      "ovn_raft_cluster_member:leadership_transfers:count{db=\"OVN_Southbound\"}";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::string state;
  int samples = 0;
  while (std::chrono::steady_clock::now() < deadline && (state != "firing" || samples < 15)) {
    const auto count = PolledQuery(e.port(), counted);
    if (!count.empty()) {
      ++samples;
      ASSERT_EQ(count.size(), 1u);
      EXPECT_EQ(count[0].labels.at("server_id"), id);
      EXPECT_EQ(count[0].value, 1) << "sample " << samples;
    }
    for (const auto& a :
         PolledQuery(e.port(), "ALERTS{alertname=\"OVNRaftFrequentLeadershipTransfers\"}")) {
      EXPECT_EQ(a.labels.at("db"), "OVN_Southbound");
      state = a.labels.at("alertstate");
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  // One leader change, the transfer: no election by timeout left to count (the term may rise
  // a scrape before the transfer is seen, so only once both are in).
  EXPECT_EQ(
      PolledQuery(e.port(), "ALERTS{alertname=\"OVNRaftFrequentElections\", db=\"OVN_Southbound\"}")
          .size(),
      0u);
  // The raw series: the new leader's exporter says why its last election started.
  const auto raw =
      PolledQuery(e.port(),
                  "ovn_raft_last_election_started_timestamp_seconds{db=\"OVN_Southbound\", "
                  "reason=\"leadership_transfer\"} * on (instance, db) group_left (server_id) "
                  "ovn_raft_server_info");
  ASSERT_EQ(raw.size(), 1u);
  EXPECT_EQ(raw[0].labels.at("server_id"), id);
  const auto after = PolledQuery(e.port(), term);
  ASSERT_EQ(after.size(), 1u);
  std::printf(
      "[ scenario ] member %d stopped gracefully: member %d (%s) leads SB by transfer, "
      "term %.0f -> %.0f; counted 1 transfer in %d samples; "
      "OVNRaftFrequentLeadershipTransfers %s, OVNRaftFrequentElections silent\n",
      old_leader, leader, id.c_str(), before[0].value, after[0].value, samples, state.c_str());
  EXPECT_EQ(state, "firing");
  EXPECT_GE(samples, 15);
  EXPECT_GT(after[0].value, before[0].value);
}

// A host as packaged: no --cluster.expected-members on any exporter and no kube-state-metrics.
// The deployment says its size checks are off (OVNRaftExpectedSizeUnknown fires, /status and
// ovn-raft-report say so), and a member that leaves SB's cluster raises no OVNRaftTooFewMembers.
// The for: durations run 30 times faster (15m: 30 s). With the guides' setting the same removal
// fires OVNRaftTooFewMembers: MemberLeftIsAStateNotAReadError.
TEST(ConsensusEndToEndTest, SizeChecksOffWithoutAnExpectedSize) {
  if (testing::ReportBinary().empty()) {
    GTEST_SKIP() << "built without ovn-raft-report (OVN_RAFT_BUILD_REPORT=OFF)";
  }
  const auto start = std::chrono::steady_clock::now();
  EndToEnd e({}, {}, 30);
  AlertLog log(e.port());
  const std::string off = "OVNRaftExpectedSizeUnknown/-";
  log.Note("no expected size anywhere");
  e.ExpectConverges({off}, "healthy, no expected size anywhere");
  const int m = Follower(e.cluster());
  log.Note("member " + std::to_string(m) + " leaves SB's cluster");
  e.cluster().Leave(m, "sb");
  const auto left = std::chrono::steady_clock::now();
  e.ExpectConverges({off, "OVNRaftQuorumAtRisk/OVN_Southbound"},
                    "a follower left SB's cluster, no expected size");
  EXPECT_EQ(e.PerDb("ovn_raft_cluster:members_union:count"),
            (std::map<std::string, double>{{"OVN_Northbound", 3}, {"OVN_Southbound", 2}}));
  // Past OVNRaftTooFewMembers' own for: since SB has had 2 members, and past the signal's.
  while (!log.First(off, "firing") ||
         std::chrono::steady_clock::now() < left + std::chrono::seconds(45)) {
    ASSERT_LT(std::chrono::steady_clock::now(), left + std::chrono::seconds(90))
        << "OVNRaftExpectedSizeUnknown never fired";
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  std::printf("[ scenario ] OVNRaftExpectedSizeUnknown fired %.0f s after the test began\n",
              std::chrono::duration<double>(*log.First(off, "firing") - start).count());
  const auto alerts = PolledQuery(e.port(), "ALERTS{alertname=\"OVNRaftExpectedSizeUnknown\"}");
  ASSERT_EQ(alerts.size(), 1u);  // one per deployment, not per database
  EXPECT_EQ(alerts[0].labels.at("namespace"), "demo");
  EXPECT_EQ(alerts[0].labels.at("severity"), "info");
  e.ExpectPerDb(
      "count by (db) (ovn_raft_cluster:reporters:count unless on (namespace, db, cluster_id) "
      "ovn_raft_cluster:expected_members:count)",
      1);
  // Too few members never went pending: its input is empty.
  EXPECT_TRUE(PolledQuery(e.port(), "ovn_raft_cluster:members_vs_expected:diff").empty());
  EXPECT_EQ(log.Seen("pending").count("OVNRaftTooFewMembers/OVN_Southbound"), 0u);
  EXPECT_EQ(log.Seen("firing").count("OVNRaftTooFewMembers/OVN_Southbound"), 0u);
  // Each exporter and the report (given no flags) say it too.
  for (const auto& url : e.RunningUrls()) {
    const auto status = testing::HttpGet(url + "/status").body;
    EXPECT_NE(
        status.find("\"expected_cluster\":{\"size\":null,\"hosts\":[],\"size_checks\":false}"),
        std::string::npos)
        << status.substr(0, 200);
  }
  std::string command = testing::ReportBinary();
  for (const auto& url : e.RunningUrls()) command += " " + url;
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  char buf[4096];
  while (p && fgets(buf, sizeof(buf), p)) out += buf;
  if (p) pclose(p);
  std::printf("%s", out.c_str());
  std::size_t lines = 0;
  for (auto at = out.find("size checks off"); at != std::string::npos;
       at = out.find("size checks off", at + 1)) {
    ++lines;
  }
  EXPECT_EQ(lines, 2u) << "one line per database";
  EXPECT_EQ(out.find("expected 3"), std::string::npos);
  log.Stop();
  for (const auto& line : log.lines()) std::printf("[ alerts   ] %s\n", line.c_str());
  std::printf("[ scenario ] %.0f s in all\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

}  // namespace
}  // namespace ovn_raft
