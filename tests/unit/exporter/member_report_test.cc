#include "consensus/member_report.h"

#include <gtest/gtest.h>

#include "exporter/status_document.h"
#include "parsers/cluster_status_parser.h"
#include "support/fixtures.h"

namespace ovn_raft {
namespace {

// What the exporter writes to /status is what the report reads back.
TEST(MemberReportTest, StatusDocumentRoundTrip) {
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

// What is not an exporter's /status says why, rather than reading as "no databases".
TEST(MemberReportTest, NotAStatusDocumentSaysWhy) {
  const auto garbage = DecodeStatusJson("<html>502 Bad Gateway</html>", "http://a:9476");
  ASSERT_FALSE(garbage);
  EXPECT_EQ(garbage.error(), "not JSON");
  const auto other = DecodeStatusJson(R"({"status":"success","data":[]})", "http://a:9476");
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().find("not an exporter's /status"), std::string::npos);
  const auto none = DecodeStatusJson(R"({"databases":[]})", "http://a:9476");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none.value().empty());
}

// The expected cluster an exporter was given reaches the report with each of its databases;
// an exporter given none (or one that does not say) leaves the size unknown.
TEST(MemberReportTest, ExpectedClusterRoundTrip) {
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

// The report's own flags win; without them, what the members' exporters were given, combined
// as the rules combine it: the largest size, every host.
TEST(MemberReportTest, ExpectedOfTheReportElseOfTheMembers) {
  std::vector<MemberReport> members(3);
  EXPECT_EQ(ExpectedOf({}, members).size(), 0);  // none anywhere: the size checks are off
  EXPECT_EQ(ExpectedOf({5, {}}, members).size(), 5);
  members[0].expected = {3, {}};
  members[1].expected = {0, {"10.0.0.1", "10.0.0.4"}};
  members[2].expected = {0, {"10.0.0.2"}};
  const ExpectedCluster combined = ExpectedOf({}, members);
  EXPECT_EQ(combined.size(), 3);
  EXPECT_EQ(combined.hosts, (std::vector<std::string>{"10.0.0.1", "10.0.0.2", "10.0.0.4"}));
  EXPECT_EQ(ExpectedOf({5, {}}, members).size(), 5);
  EXPECT_TRUE(ExpectedOf({5, {}}, members).hosts.empty());
}

TEST(MemberReportTest, MixedReleasesNamesEachWithItsCount) {
  std::vector<MemberReport> members(4);
  members[0].ovs_version = "3.1.0";
  members[1].ovs_version = "3.5.0";
  members[2].ovs_version = "3.1.0";
  EXPECT_EQ(MixedReleases(members), "3.1.0 (2), 3.5.0 (1)");  // unknown (members[3]) not counted
  members[1].ovs_version = "3.1.0";
  EXPECT_EQ(MixedReleases(members), "");
  EXPECT_EQ(MixedReleases({}), "");
}

// What a /status lists is bounded before it is decoded: millions of entries would be millions
// of reports.
TEST(MemberReportTest, AStatusListingTooMuchIsRefused) {
  std::string many = R"({"databases":[{})";
  for (int i = 0; i < 100; ++i) many += ",{}";
  const auto dbs = DecodeStatusJson(many + "]}", "http://a:9476");
  ASSERT_FALSE(dbs);
  EXPECT_NE(dbs.error().find("databases, more than 16"), std::string::npos) << dbs.error();
  std::string servers = R"({"databases":[{"name":"OVN_Northbound","up":true,"status":{"servers":[)";
  for (int i = 0; i < 2000; ++i) servers += std::string(i ? "," : "") + "{}";
  const auto big = DecodeStatusJson(servers + "]}}]}", "http://a:9476");
  ASSERT_TRUE(big);
  ASSERT_EQ(big.value().size(), 1u);
  EXPECT_FALSE(big.value()[0].up);
  EXPECT_TRUE(big.value()[0].view.empty());
  EXPECT_NE(big.value()[0].error.find("more than 1024 members"), std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
