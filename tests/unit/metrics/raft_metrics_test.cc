#include "metrics/raft_metrics.h"

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <set>
#include <sstream>

#include "parsers/cluster_status_parser.h"
#include "parsers/database_model.h"
#include "parsers/memory_usage.h"
#include "parsers/storage_status.h"
#include "support/exposition.h"
#include "support/fixtures.h"

namespace ovn_raft {
namespace {

using testing::Exposition;

const auto kNow = std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000));

DatabaseReading FromFixture(const std::string& db, const std::string& fixture) {
  DatabaseReading r;
  r.target = {db, "/x.ctl", "/x.sock", ""};
  r.status = ParseClusterStatus(testing::Fixture(fixture));
  r.duration_seconds = 0.001;
  return r;
}

Exposition Render(const Snapshot& s, const ErrorCounts& errors = {}) {
  return Exposition(prometheus::TextSerializer().Serialize(BuildRaftMetrics(s, errors, 7)));
}

// A member ID listed twice (same or another address) must not give duplicate series.
TEST(RaftMetricsTest, AnIdListedTwiceGivesNoDuplicateSeries) {
  std::string text = testing::Fixture("ovs-3.1.0/leader.txt");
  text += "    68ff (68ff at tcp:127.0.0.2:26245) next_index=5 match_index=4 last msg 10 ms ago\n";
  text += "    68ff (68ff at tcp:127.0.0.9:26245) next_index=5 match_index=4 last msg 10 ms ago\n";
  Snapshot s;
  s.taken_at = kNow;
  DatabaseReading r;
  r.target = {"OVN_Northbound", "/x.ctl", "/x.sock", ""};
  r.status = ParseClusterStatus(text);
  s.databases.push_back(r);
  const std::string page = prometheus::TextSerializer().Serialize(BuildRaftMetrics(s, {}, 7));
  std::set<std::string> series;
  std::istringstream in(page);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::string key = line.substr(0, line.rfind(' '));
    EXPECT_TRUE(series.insert(key).second) << "duplicate series: " << key;
  }
  const Exposition m(page);
  EXPECT_EQ(m.Value("ovn_raft_view_duplicate_short_ids"), 1);  // one ID listed 3 times
  EXPECT_EQ(m.All("ovn_raft_member_info").size(), 3u);
}

// The release is a fact of the server, read apart from its status: known even when the status
// is not, absent when the server did not say it.
TEST(RaftMetricsTest, ServerReleaseIsAnInfoSeries) {
  Snapshot s;
  s.taken_at = kNow;
  auto nb = FromFixture("OVN_Northbound", "ovs-3.1.0/leader.txt");
  nb.ovs_version = "3.5.0";
  DatabaseReading sb;
  sb.target = {"OVN_Southbound", "/y.ctl", "", ""};
  sb.status_error = Error{ErrorCode::kRpcError, "unknown cluster"};
  sb.ovs_version = "4.0.0";
  DatabaseReading ic;
  ic.target = {"OVN_IC_Northbound", "/z.ctl", "", ""};
  ic.status_error = Error{ErrorCode::kSocketMissing, "gone"};
  s.databases = {nb, sb, ic};
  const auto m = Render(s);
  EXPECT_EQ(
      m.Value("ovn_raft_ovsdb_server_build_info", {{"db", "OVN_Northbound"}, {"version", "3.5.0"}}),
      1);
  EXPECT_EQ(
      m.Value("ovn_raft_ovsdb_server_build_info", {{"db", "OVN_Southbound"}, {"version", "4.0.0"}}),
      1);
  EXPECT_EQ(m.All("ovn_raft_ovsdb_server_build_info").size(), 2u);
}

TEST(RaftMetricsTest, LeaderFacts) {
  Snapshot s;
  s.taken_at = kNow;
  auto r = FromFixture("OVN_Northbound", "ovs-3.1.0/leader.txt");
  r.server = ServerDatabase{"OVN_Northbound", "clustered", true, true, "c", "s", 42};
  s.databases.push_back(r);
  const ClusterStatus& st = *r.status;
  const auto m = Render(s);
  const std::map<std::string, std::string> db{{"db", "OVN_Northbound"}};
  EXPECT_EQ(m.Value("ovn_raft_up", db), 1);
  EXPECT_EQ(m.Value("ovn_raft_role", {{"role", "leader"}}), 1);
  EXPECT_EQ(m.Value("ovn_raft_role", {{"role", "follower"}}), 0);
  EXPECT_EQ(m.All("ovn_raft_status").size(), 6u);
  EXPECT_EQ(m.Value("ovn_raft_status", {{"status", "cluster_member"}}), 1);
  EXPECT_EQ(m.Value("ovn_raft_term", db), 1);
  EXPECT_EQ(m.Label("ovn_raft_leader_info", "leader_id"), *st.server_id);  // "self" resolved
  EXPECT_EQ(m.Value("ovn_raft_has_leader", db), 1);
  EXPECT_EQ(m.Value("ovn_raft_voted_for_self", db), 1);
  EXPECT_EQ(m.Value("ovn_raft_election_timer_seconds", db), 1.0);
  EXPECT_EQ(m.Label("ovn_raft_server_info", "server_uuid"), *st.server_uuid);
  EXPECT_EQ(m.Label("ovn_raft_server_info", "host"), "127.0.0.1");
  // "N ms ago" becomes the Unix time of the round minus N.
  EXPECT_DOUBLE_EQ(*m.Value("ovn_raft_last_election_won_timestamp_seconds"),
                   1'800'000'000.0 - static_cast<double>(*st.last_election_won_ms_ago) / 1000.0);
  EXPECT_EQ(m.Label("ovn_raft_last_election_started_timestamp_seconds", "reason"), "timeout");
  EXPECT_EQ(m.Value("ovn_raft_connections", {{"direction", "outbound"}, {"state", "connected"}}),
            2);
  EXPECT_EQ(m.Value("ovn_raft_connections", {{"direction", "inbound"}, {"state", "connecting"}}),
            0);
  EXPECT_EQ(m.Value("ovn_raft_members", db), 3);
  EXPECT_EQ(m.Value("ovn_raft_quorum_size", db), 2);
  // Dropped: one member cannot tell how many others are alive (the rules can).
  EXPECT_FALSE(m.Value("ovn_raft_failure_tolerance").has_value());
  // "<-68ff ->68ff <-63a7 ->63a7": both peers connected, no series for self.
  EXPECT_EQ(m.All("ovn_raft_member_connected").size(), 2u);
  EXPECT_EQ(m.Value("ovn_raft_member_connected", {{"member_id", "68ff"}}), 1);
  EXPECT_EQ(m.Value("ovn_raft_member_connected", {{"member_id", "63a7"}}), 1);
  EXPECT_EQ(m.Value("ovn_raft_unidentified_connections", {{"direction", "inbound"}}), 0);
  EXPECT_EQ(m.All("ovn_raft_member_info").size(), 3u);
  EXPECT_EQ(m.All("ovn_raft_member_match_index").size(), 3u);
  EXPECT_EQ(m.All("ovn_raft_member_last_message_age_seconds").size(), 2u);  // not for self
  EXPECT_EQ(m.Value("ovn_raft_connected", db), 1);
  EXPECT_EQ(m.Value("ovn_raft_clustered", db), 1);
  EXPECT_EQ(m.Value("ovn_raft_database_index", db), 42);
  EXPECT_EQ(m.Value("ovn_raft_exporter_read_rounds_total"), 7);
  EXPECT_FALSE(m.Value("ovn_raft_election_timer_target_seconds").has_value());
  EXPECT_FALSE(m.Value("ovn_raft_expected_members").has_value());  // unset
  const Exposition with_expected(
      prometheus::TextSerializer().Serialize(BuildRaftMetrics(s, {}, 7, {3, {}})));
  EXPECT_EQ(with_expected.Value("ovn_raft_expected_members", db), 3);
  EXPECT_TRUE(with_expected.All("ovn_raft_expected_host_info").empty());
  const Exposition with_hosts(prometheus::TextSerializer().Serialize(
      BuildRaftMetrics(s, {}, 7, {2, {"10.0.0.1", "fd00::2"}})));
  EXPECT_EQ(with_hosts.Value("ovn_raft_expected_host_info", {{"host", "fd00::2"}}), 1);
  EXPECT_EQ(with_hosts.All("ovn_raft_expected_host_info").size(), 2u);
  EXPECT_EQ(m.All("ovn_raft_member_change_info").size(), 0u);
}

// A page built on an earlier page's families is the page a fresh build gives, whatever the
// earlier one held: another role, a database more, families this page has none of.
TEST(RaftMetricsTest, AnEarlierPageReusedGivesTheSamePage) {
  Snapshot leader;
  leader.taken_at = kNow;
  leader.databases.push_back(FromFixture("OVN_Northbound", "ovs-3.1.0/leader.txt"));
  leader.databases.push_back(FromFixture("OVN_Southbound", "ovs-3.1.0/leader.txt"));
  Snapshot follower;
  follower.taken_at = kNow;
  follower.databases.push_back(FromFixture("OVN_Northbound", "ovs-3.1.0/follower.txt"));
  const ExpectedCluster hosts{2, {"10.0.0.1", "fd00::2"}};
  const prometheus::TextSerializer text;
  const std::string fresh_follower = text.Serialize(BuildRaftMetrics(follower, {}, 7));
  const std::string fresh_leader = text.Serialize(BuildRaftMetrics(leader, {}, 8, hosts));
  auto page = BuildRaftMetrics(leader, {}, 8, hosts);
  const std::string* help = &page[0].help;
  page = BuildRaftMetrics(follower, {}, 7, {}, std::move(page));
  EXPECT_EQ(text.Serialize(page), fresh_follower);
  EXPECT_EQ(&page[0].help, help);  // the same family, filled again in place
  page = BuildRaftMetrics(leader, {}, 8, hosts, std::move(page));
  EXPECT_EQ(text.Serialize(page), fresh_leader);
}

TEST(RaftMetricsTest, FollowerAndCandidate) {
  Snapshot s;
  s.databases.push_back(FromFixture("F", "ovs-3.1.0/follower.txt"));
  s.databases.push_back(FromFixture("C", "ovs-3.1.0/disconnected-candidate.txt"));
  const auto m = Render(s);
  EXPECT_EQ(m.Value("ovn_raft_role", {{"db", "F"}, {"role", "follower"}}), 1);
  EXPECT_EQ(m.All("ovn_raft_member_next_index", {{"db", "F"}}).size(), 0u);
  EXPECT_EQ(m.Value("ovn_raft_has_leader", {{"db", "C"}}), 0);
  EXPECT_EQ(m.All("ovn_raft_leader_info", {{"db", "C"}}).size(), 0u);
  EXPECT_EQ(m.Value("ovn_raft_status", {{"db", "C"}, {"status", "disconnected"}}), 1);
  EXPECT_EQ(m.Value("ovn_raft_connections",
                    {{"db", "C"}, {"direction", "outbound"}, {"state", "connecting"}}),
            2);
  EXPECT_EQ(m.Value("ovn_raft_members", {{"db", "C"}}), 4);
  // "(->68ff) (->63a7)": trying, not connected: nobody to vouch for.
  EXPECT_EQ(m.Value("ovn_raft_member_connected", {{"db", "C"}, {"member_id", "68ff"}}), 0);
  EXPECT_EQ(m.Value("ovn_raft_member_connected", {{"db", "C"}, {"member_id", "63a7"}}), 0);
  // "->0000 <-6355 <-63a7 ->63a7": the unidentified outbound connection is counted apart.
  EXPECT_EQ(m.Value("ovn_raft_connections",
                    {{"db", "F"}, {"direction", "outbound"}, {"state", "connected"}}),
            1);
  EXPECT_EQ(m.Value("ovn_raft_unidentified_connections", {{"db", "F"}, {"direction", "outbound"}}),
            1);
  EXPECT_EQ(m.Value("ovn_raft_member_connected", {{"db", "F"}, {"member_id", "6355"}}), 1);
}

TEST(RaftMetricsTest, JoiningHasNoQuorum) {
  Snapshot s;
  s.databases.push_back(FromFixture("J", "ovs-3.1.0/joining.txt"));
  const auto m = Render(s);
  EXPECT_EQ(m.Value("ovn_raft_members", {{"db", "J"}}), 0);
  EXPECT_FALSE(m.Value("ovn_raft_quorum_size").has_value());  // no view, no quorum (absent, not 0)
  EXPECT_EQ(m.Value("ovn_raft_unidentified_connections", {{"db", "J"}, {"direction", "outbound"}}),
            2);
}

TEST(RaftMetricsTest, ConflictsAndChanges) {
  Snapshot s;
  s.databases.push_back(FromFixture("R", "ovs-3.1.0/fresh-restart-rejoined.txt"));
  s.databases.push_back(FromFixture("M", "documented/ovs-3.x-leader-membership-change.txt"));
  s.databases.push_back(FromFixture("T", "documented/ovs-2.13-leader-changing-timer.txt"));
  const auto m = Render(s);
  EXPECT_EQ(m.Value("ovn_raft_view_duplicate_hosts", {{"db", "R"}}), 1);
  EXPECT_EQ(m.Value("ovn_raft_self_address_conflict", {{"db", "R"}}), 1);
  EXPECT_EQ(m.Value("ovn_raft_self_in_view", {{"db", "R"}}), 1);
  const auto changes = m.All("ovn_raft_member_change_info", {{"db", "M"}});
  ASSERT_EQ(changes.size(), 2u);  // 3c4d removing, 4e5f adding (listed as caught up)
  EXPECT_EQ(m.Label("ovn_raft_member_change_info", "phase", {{"member_id", "3c4d"}}), "removing");
  EXPECT_EQ(m.Label("ovn_raft_member_change_info", "phase", {{"member_id", "4e5f"}}), "caught_up");
  EXPECT_EQ(m.Value("ovn_raft_election_timer_target_seconds", {{"db", "T"}}), 10);
  EXPECT_FALSE(m.Value("ovn_raft_disconnections_total", {{"db", "T"}}).has_value());  // 2.13
}

// memory/show in base units, zero for what the server leaves out (it omits zero counts), and
// nothing at all when the server did not answer; a storage error is a 0.
TEST(RaftMetricsTest, ServerFactsInBaseUnits) {
  Snapshot s;
  s.taken_at = kNow;
  auto nb = FromFixture("OVN_Northbound", "ovs-3.1.0/failed-leader.txt");
  nb.memory = ParseMemoryUsage("atoms:765 raft-backlog-kB:12 sessions:2 brand-new:1");
  nb.storage = StorageStatus{true, ""};
  nb.server_seen_since = kNow - std::chrono::hours(30);
  nb.log_uncompacted_since = kNow - std::chrono::hours(26);
  DatabaseReading sb;
  sb.target = {"OVN_Southbound", "/y.ctl", "", ""};
  sb.storage = StorageStatus{false, "inconsistent data"};
  sb.memory_error = Error{ErrorCode::kTimeout, "slow"};
  s.databases = {nb, sb};
  const auto m = Render(s);
  const std::map<std::string, std::string> n{{"db", "OVN_Northbound"}};
  EXPECT_EQ(m.Value("ovn_raft_ovsdb_atoms", n), 765);
  EXPECT_EQ(m.Value("ovn_raft_backlog_bytes", n), 12000);
  EXPECT_EQ(m.Value("ovn_raft_ovsdb_sessions", n), 2);
  EXPECT_EQ(m.Value("ovn_raft_ovsdb_monitors", n), 0);
  EXPECT_EQ(m.Value("ovn_raft_ovsdb_memory_show_unknown_keys", n), 1);
  EXPECT_EQ(m.Value("ovn_raft_storage_ok", n), 1);
  EXPECT_EQ(m.Value("ovn_raft_storage_ok", {{"db", "OVN_Southbound"}}), 0);
  EXPECT_EQ(m.Value("ovn_raft_ovsdb_server_seen_since_timestamp_seconds", n),
            1'800'000'000 - 30 * 3600);
  EXPECT_EQ(m.Value("ovn_raft_log_uncompacted_since_timestamp_seconds", n),
            1'800'000'000 - 26 * 3600);
  EXPECT_EQ(m.Value("ovn_raft_status", {{"db", "OVN_Northbound"}, {"status", "failed"}}), 1);
  // The counts say nothing for a database whose server did not answer memory/show.
  EXPECT_FALSE(m.Value("ovn_raft_ovsdb_atoms", {{"db", "OVN_Southbound"}}).has_value());
  EXPECT_EQ(m.All("ovn_raft_ovsdb_atoms").size(), 1u);
  // raft-connections and raft-log say what cluster/status says: no series of their own.
  EXPECT_EQ(m.All("ovn_raft_ovsdb_raft_connections").size(), 0u);
}

TEST(RaftMetricsTest, FailedReadIsUpZeroWithCountedReason) {
  Snapshot s;
  DatabaseReading r;
  r.target = {"OVN_Southbound", "/gone.ctl", "", ""};
  r.status_error = Error{ErrorCode::kSocketMissing, "no socket"};
  s.databases.push_back(r);
  const auto m = Render(s, {{{"OVN_Southbound", "socket_missing"}, 3}});
  EXPECT_EQ(m.Value("ovn_raft_up", {{"db", "OVN_Southbound"}}), 0);
  EXPECT_EQ(m.Value("ovn_raft_exporter_errors_total",
                    {{"db", "OVN_Southbound"}, {"reason", "socket_missing"}}),
            3);
  // Every other known reason is there from the start, at 0.
  const auto reasons = m.All("ovn_raft_exporter_errors_total", {{"db", "OVN_Southbound"}});
  EXPECT_EQ(reasons.size(), std::size(kAllErrorCodes));
  EXPECT_EQ(
      m.Value("ovn_raft_exporter_errors_total", {{"db", "OVN_Southbound"}, {"reason", "timeout"}}),
      0);
  EXPECT_FALSE(m.Value("ovn_raft_role").has_value());
  EXPECT_FALSE(m.Value("ovn_raft_server_info").has_value());
}

// A database without Raft, as the reader leaves it (model_reading.h): its _Server row, its
// server's facts, cluster/status's error cleared.
DatabaseReading WithoutRaft(const std::string& db, const std::string& model, bool connected) {
  DatabaseReading r;
  r.target = {db, "/x.ctl", "/x.sock", ""};
  r.server = ServerDatabase{db, model, connected, model == "standalone", {}, {}, {}};
  r.model = ParseDatabaseModel(model);
  r.ovs_version = "3.1.0";
  r.memory = ParseMemoryUsage("atoms:14 cells:20 monitors:1 n-weak-refs:0 sessions:3\n");
  r.storage = StorageStatus{true, ""};
  return r;
}

// Served as what it is: up, its model, its server's facts, and no Raft series (no role,
// members, Raft backlog or quorum contact); nothing counted as an error.
TEST(RaftMetricsTest, StandaloneAndRelayAreServedWithoutRaftSeries) {
  Snapshot s;
  s.taken_at = kNow;
  s.databases = {WithoutRaft("OVN_Northbound", "standalone", true),
                 WithoutRaft("OVN_Southbound", "relay", true),
                 WithoutRaft("OVN_IC_Southbound", "relay", false)};
  const auto m = Render(s);
  for (const auto& d : s.databases) {
    const std::map<std::string, std::string> db{{"db", d.target.name}};
    EXPECT_EQ(m.Value("ovn_raft_up", db), 1) << d.target.name;
    EXPECT_EQ(m.Value("ovn_raft_clustered", db), 0);
    EXPECT_EQ(m.Value("ovn_raft_ovsdb_sessions", db), 3) << "the clients it serves";
    EXPECT_EQ(m.Value("ovn_raft_ovsdb_server_build_info", {{"db", d.target.name}}), 1);
    EXPECT_EQ(m.Value("ovn_raft_storage_ok", db), 1);
    EXPECT_FALSE(m.Value("ovn_raft_connected", db)) << "no majority to be in contact with";
    EXPECT_FALSE(m.Value("ovn_raft_backlog_bytes", db));
    EXPECT_FALSE(m.Value("ovn_raft_database_index", db));
    for (const auto& e : m.All("ovn_raft_exporter_errors_total")) {
      if (e.labels.at("db") == d.target.name) {
        EXPECT_EQ(e.value, 0) << e.labels.at("reason");
      }
    }
  }
  EXPECT_EQ(
      m.Value("ovn_raft_database_model_info", {{"db", "OVN_Northbound"}, {"model", "standalone"}}),
      1);
  EXPECT_EQ(m.Value("ovn_raft_database_model_info", {{"db", "OVN_Southbound"}, {"model", "relay"}}),
            1);
  EXPECT_EQ(m.All("ovn_raft_database_model_info").size(), 3u);
  EXPECT_EQ(m.Value("ovn_raft_relay_connected", {{"db", "OVN_Southbound"}}), 1);
  EXPECT_EQ(m.Value("ovn_raft_relay_connected", {{"db", "OVN_IC_Southbound"}}), 0);
  EXPECT_FALSE(m.Value("ovn_raft_relay_connected", {{"db", "OVN_Northbound"}}));
  for (const char* raft : {"ovn_raft_role", "ovn_raft_status", "ovn_raft_members",
                           "ovn_raft_server_info", "ovn_raft_term", "ovn_raft_parse_warnings"}) {
    EXPECT_TRUE(m.All(raft).empty()) << raft;
  }
}

// A member: its model, its quorum contact; no relay series.
TEST(RaftMetricsTest, AMemberIsClustered) {
  Snapshot s;
  s.taken_at = kNow;
  auto r = FromFixture("OVN_Northbound", "ovs-3.1.0/follower.txt");
  r.server = ServerDatabase{"OVN_Northbound", "clustered", false, false, "c", "s", 5};
  r.model = DatabaseModel::kClustered;
  s.databases.push_back(r);
  const auto m = Render(s);
  EXPECT_EQ(
      m.Value("ovn_raft_database_model_info", {{"db", "OVN_Northbound"}, {"model", "clustered"}}),
      1);
  EXPECT_EQ(m.Value("ovn_raft_connected", {{"db", "OVN_Northbound"}}), 0);
  EXPECT_TRUE(m.All("ovn_raft_relay_connected").empty());
}

}  // namespace
}  // namespace ovn_raft
