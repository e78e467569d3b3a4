#include "consensus/member_report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ovn_raft {
namespace {

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

// A standalone or relay database has no Raft status, so `up` is false for it; `model` says it
// was read as what it is, and a relay's `connected` is its contact with its source. An older
// exporter's entry, without `model`, is a Raft member's as before.
TEST(MemberReportTest, ADatabaseWithoutRaftIsKnownByItsModel) {
  const auto dbs = DecodeStatusJson(
      R"({"databases":[
        {"name":"OVN_Northbound","up":false,"model":"standalone","ovs_version":"3.5.0",
         "server":{"model":"standalone","connected":true,"leader":true}},
        {"name":"OVN_Southbound","up":false,"model":"relay",
         "server":{"model":"relay","connected":false,"leader":false}},
        {"name":"OVN_IC_Northbound","up":false,"model":"standalone",
         "error":{"reason":"timeout","message":"no reply within 1s"}},
        {"name":"OVN_IC_Southbound","up":false,"model":"clustered",
         "error":{"reason":"socket_missing","message":"no socket"}},
        {"name":"Other","up":false,"error":{"reason":"timeout","message":"no reply"}}]})",
      "http://a:10476");
  ASSERT_TRUE(dbs);
  const auto& r = dbs.value();
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].model, DatabaseModel::kStandalone);
  EXPECT_TRUE(ServedWithoutRaft(r[0]));
  EXPECT_EQ(r[1].model, DatabaseModel::kRelay);
  EXPECT_EQ(r[1].connected, false);
  EXPECT_TRUE(ServedWithoutRaft(r[1]));
  EXPECT_TRUE(ServedWithoutRaft(r[2]));  // without Raft, though not read
  EXPECT_EQ(r[2].error, "no reply within 1s");
  EXPECT_FALSE(ServedWithoutRaft(r[3]));  // a clustered database down stays down
  EXPECT_FALSE(r[4].model);
  EXPECT_FALSE(ServedWithoutRaft(r[4]));  // an older exporter: as before
}

}  // namespace
}  // namespace ovn_raft
