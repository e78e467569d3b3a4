// What the exporter writes to /status (exporter/status_document.h) is what the report reads
// back (consensus/member_report.h).
#include <gtest/gtest.h>

#include "consensus/member_report.h"
#include "exporter/status_document.h"
#include "parsers/cluster_status_parser.h"
#include "support/fixtures.h"

namespace ovn_raft {
namespace {

// Every field of a database that was read, and the error of one that was not.
TEST(StatusRoundTripTest, EveryDatabaseAndItsError) {
  Snapshot s;
  s.taken_at = std::chrono::system_clock::now();
  DatabaseReading nb;
  nb.target = {"OVN_Northbound", "/run/ovn/ovnnb_db.ctl", "/run/ovn/ovnnb_db.sock", ""};
  nb.status = ParseClusterStatus(testing::Fixture("ovs-3.1.0/leader.txt"));
  nb.server = ServerDatabase{"OVN_Northbound", "clustered", true, true, "c", "s", 42};
  nb.ovs_version = "3.5.0";
  nb.server_seen_since = s.taken_at - std::chrono::seconds(90);
  DatabaseReading sb;
  sb.target = {"OVN_Southbound", "/run/ovn/ovnsb_db.ctl", "", ""};
  sb.status_error = Error{ErrorCode::kTimeout, "no complete reply"};
  s.databases = {nb, sb};

  const auto decoded = DecodeStatusJson(SnapshotToJson(s), "http://a:9476");
  ASSERT_TRUE(decoded) << decoded.error();
  const auto& reports = decoded.value();
  ASSERT_EQ(reports.size(), 2u);
  const MemberReport& r = reports[0];
  const ClusterStatus& st = *nb.status;
  EXPECT_EQ(r.source, "http://a:9476");
  EXPECT_EQ(r.db, "OVN_Northbound");
  EXPECT_EQ(r.ctl, "/run/ovn/ovnnb_db.ctl");
  EXPECT_TRUE(r.up);
  EXPECT_EQ(r.ovs_version, "3.5.0");
  EXPECT_EQ(r.cluster_id, *st.cluster_id);
  EXPECT_EQ(r.server_id, *st.server_id);
  EXPECT_EQ(r.address, st.address->raw);
  EXPECT_EQ(r.role, "leader");
  EXPECT_EQ(r.leader, *st.server_id);  // "self" resolved
  EXPECT_EQ(r.term, st.term);
  EXPECT_EQ(r.connected, true);
  EXPECT_EQ(r.election_timer_ms, st.election_timer_ms);
  ASSERT_EQ(r.view.size(), st.servers->size());
  for (const auto& e : *st.servers) EXPECT_EQ(r.view.at(e.server_id), e.address.raw);
  EXPECT_EQ(r.established.size(), 2u);  // both peers, in both directions
  ASSERT_TRUE(r.up_for_s);
  EXPECT_NEAR(*r.up_for_s, 90, 0.01);

  EXPECT_EQ(reports[1].db, "OVN_Southbound");
  EXPECT_FALSE(reports[1].up);
  EXPECT_EQ(reports[1].error, "no complete reply");
  EXPECT_EQ(reports[1].ovs_version, "");
  EXPECT_FALSE(reports[1].up_for_s);  // never seen running
}

// The expected cluster an exporter was given reaches the report with each of its databases;
// an exporter given none (or one that does not say) leaves the size unknown.
TEST(StatusRoundTripTest, TheExpectedCluster) {
  Snapshot s;
  DatabaseReading nb;
  nb.target = {"OVN_Northbound", "/run/ovn/ovnnb_db.ctl", "", ""};
  DatabaseReading sb = nb;
  sb.target.name = "OVN_Southbound";
  s.databases = {nb, sb};
  const auto given = DecodeStatusJson(
      SnapshotToJson(s, nullptr, ExpectedCluster{0, {"10.0.0.1", "10.0.0.2", "10.0.0.3"}}), "a");
  ASSERT_TRUE(given) << given.error();
  ASSERT_EQ(given.value().size(), 2u);
  for (const auto& r : given.value()) {
    EXPECT_EQ(r.expected.size(), 3);
    EXPECT_EQ(r.expected.hosts, (std::vector<std::string>{"10.0.0.1", "10.0.0.2", "10.0.0.3"}));
  }
  const auto none = DecodeStatusJson(SnapshotToJson(s), "a");
  ASSERT_TRUE(none) << none.error();
  EXPECT_EQ(none.value()[0].expected.size(), 0);
  const auto older = DecodeStatusJson(R"({"databases":[{"name":"OVN_Northbound"}]})", "a");
  ASSERT_TRUE(older);
  EXPECT_EQ(older.value()[0].expected.size(), 0);
  const auto odd = DecodeStatusJson(
      R"({"expected_cluster":{"size":-3,"hosts":["b","a",7,"b"]},"databases":[{}]})", "a");
  ASSERT_TRUE(odd);
  EXPECT_EQ(odd.value()[0].expected.members, 0);
  EXPECT_EQ(odd.value()[0].expected.hosts, (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace ovn_raft
