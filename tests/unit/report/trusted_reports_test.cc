#include "report/trusted_reports.h"

#include <gtest/gtest.h>

#include "consensus/database_health.h"
#include "report/member_attention.h"
#include "report/served_without_raft.h"

namespace ovn_raft {
namespace {

const std::map<std::string, std::string> kThree{
    {"a", "tcp:10.0.0.1:6643"}, {"b", "tcp:10.0.0.2:6643"}, {"c", "tcp:10.0.0.3:6643"}};

MemberReport Member(const std::string& url, const std::string& id, const std::string& role,
                    const std::string& cid = "c1") {
  MemberReport m;
  m.source = url;
  m.db = "OVN_Northbound";
  m.up = true;
  m.cluster_id = cid;
  m.server_id = id;
  m.address = kThree.count(id) ? kThree.at(id) : "tcp:10.0.0.9:6643";
  m.status = "cluster_member";
  m.role = role;
  m.leader = "a";
  m.view = kThree;
  m.connected = true;
  if (role == "leader") {
    m.election_timer_ms = 1000;
    m.heard_ms_ago = {{"b", 100}, {"c", 100}};
  }
  return m;
}

UrlStatus U(const std::string& url, std::vector<MemberReport> reports) {
  return {.url = url, .reports = std::move(reports), .host = UrlHost(url), .bindings = {}};
}

std::vector<UrlStatus> Honest() {
  return {U("http://a", {Member("http://a", "a", "leader")}),
          U("http://b", {Member("http://b", "b", "follower")}),
          U("http://c", {Member("http://c", "c", "follower")})};
}

TEST(TrustedReportsTest, HonestExportersAreAllCounted) {
  const auto by_db = SortByTrust(Honest());
  ASSERT_EQ(by_db.size(), 1u);
  const auto& db = by_db.at("OVN_Northbound");
  EXPECT_EQ(db.members.size(), 3u);
  EXPECT_TRUE(db.untrusted.empty());
  EXPECT_EQ(db.cluster_id, "c1");
}

// One URL naming a healthy member stale under another cluster ID: not counted, named.
TEST(TrustedReportsTest, AnotherClusterThanTheMajoritysIsUntrusted) {
  auto statuses = Honest();
  auto liar = Member("http://liar", "d", "leader", "c2");
  liar.view = {{"d", "tcp:10.0.0.9:6643"}, {"b", "tcp:10.0.0.2:6643"}};
  liar.heard_ms_ago = {{"b", 999999}};
  statuses.push_back(U("http://liar", {liar}));
  const auto db = SortByTrust(statuses).at("OVN_Northbound");
  EXPECT_EQ(db.members.size(), 3u);
  ASSERT_EQ(db.untrusted.size(), 1u);
  EXPECT_EQ(db.untrusted[0].url, "http://liar");
  EXPECT_NE(db.untrusted[0].reason.find("reports cluster c2, not c1 that 3 of the 4 URLs read"),
            std::string::npos)
      << db.untrusted[0].reason;
}

// One URL listing 16 entries for one database counts for none of them.
TEST(TrustedReportsTest, SeveralEntriesForOneDatabaseAreUntrusted) {
  auto statuses = Honest();
  UrlStatus many = U("http://many", {});
  for (int i = 0; i < 16; ++i) {
    auto m = Member("http://many", "f" + std::to_string(i), "follower");
    m.view = {{"f0", "tcp:10.0.0.7:6643"}};
    many.reports.push_back(m);
  }
  statuses.push_back(many);
  const auto db = SortByTrust(statuses).at("OVN_Northbound");
  EXPECT_EQ(db.members.size(), 3u);
  ASSERT_EQ(db.untrusted.size(), 1u);
  EXPECT_NE(db.untrusted[0].reason.find("lists 16 entries"), std::string::npos);
  EXPECT_EQ(db.untrusted[0].claimed.size(), 16u);
}

TEST(TrustedReportsTest, AnEntryThatContradictsItselfIsUntrusted) {
  auto empty = Member("http://e", "", "follower", "");
  empty.address = "";
  EXPECT_NE(SortByTrust({U("http://e", {empty})})
                .at("OVN_Northbound")
                .untrusted.at(0)
                .reason.find("no server ID"),
            std::string::npos);
  auto no_cluster = Member("http://n", "b", "follower", "");
  EXPECT_NE(SortByTrust({U("http://n", {no_cluster})})
                .at("OVN_Northbound")
                .untrusted.at(0)
                .reason.find("no cluster ID"),
            std::string::npos);
  auto joining = no_cluster;
  joining.status = "joining";
  EXPECT_TRUE(SortByTrust({U("http://j", {joining})}).at("OVN_Northbound").untrusted.empty());
  auto elsewhere = Member("http://b", "b", "follower");
  elsewhere.address = "tcp:10.0.0.5:6643";
  EXPECT_NE(SortByTrust({U("http://b", {elsewhere})})
                .at("OVN_Northbound")
                .untrusted.at(0)
                .reason.find("lists itself at tcp:10.0.0.2:6643"),
            std::string::npos);
}

TEST(TrustedReportsTest, TwoUrlsClaimingOneMemberAreBothUntrusted) {
  auto statuses = Honest();
  statuses.push_back(U("http://b2", {Member("http://b2", "b", "follower")}));
  const auto db = SortByTrust(statuses).at("OVN_Northbound");
  EXPECT_EQ(db.members.size(), 2u);
  EXPECT_EQ(db.untrusted.size(), 2u);
}

TEST(MemberAttentionTest, EachMemberThatNeedsAttentionIsNamedWithWhatItIs) {
  auto members = SortByTrust(Honest()).at("OVN_Northbound").members;
  members[0].heard_ms_ago["c"] = 30000;  // the leader lost c
  members[2].role = "candidate";
  members[2].term = 7;
  members[2].connected = false;
  members[2].leader = "unknown";
  const auto clusters = AnalyzeConsensus(members, {3, {}});
  ASSERT_EQ(clusters.size(), 1u);
  const auto attention = MembersNeedingAttention(clusters[0], members);
  ASSERT_EQ(attention.size(), 1u);
  EXPECT_EQ(attention[0].id, "c");
  EXPECT_EQ(attention[0].address, "tcp:10.0.0.3:6643");
  EXPECT_EQ(attention[0].states,
            (std::vector<std::string>{"disconnected (out of contact with a majority)",
                                      "campaigning (term 7)", "unheard by the leader for 30.0 s"}));
  EXPECT_EQ(NotAlive(clusters[0]), (std::vector<std::string>{"c"}));

  auto healthy = SortByTrust(Honest()).at("OVN_Northbound").members;
  const auto fine = AnalyzeConsensus(healthy, {3, {}});
  EXPECT_TRUE(MembersNeedingAttention(fine[0], healthy).empty());
}

// A standalone database and a connected relay are what they should be: no problem. A relay cut
// off from its source, or a database its exporter could not read, needs attention.
TEST(ServedWithoutRaftTest, EachModelIsSaidAsWhatItIs) {
  const auto decoded = DecodeStatusJson(
      R"({"databases":[
        {"name":"OVN_Northbound","up":false,"model":"standalone",
         "server":{"model":"standalone","connected":true,"leader":true}},
        {"name":"OVN_Southbound","up":false,"model":"relay",
         "server":{"model":"relay","connected":true,"leader":false}},
        {"name":"OVN_IC_Northbound","up":false,"model":"relay",
         "server":{"model":"relay","connected":false,"leader":false}},
        {"name":"OVN_IC_Southbound","up":false,"model":"standalone",
         "error":{"reason":"timeout","message":"no reply within 1s"}}]})",
      "http://a:10476");
  ASSERT_TRUE(decoded);
  const auto& r = decoded.value();
  ASSERT_EQ(r.size(), 4u);
  const auto standalone = DescribeWithoutRaft(r[0]);
  EXPECT_EQ(standalone.line, "standalone database, no Raft cluster");
  EXPECT_FALSE(standalone.problem);
  const auto relay = DescribeWithoutRaft(r[1]);
  EXPECT_EQ(relay.line, "relay database, connected to its source");
  EXPECT_FALSE(relay.problem);
  const auto cut_off = DescribeWithoutRaft(r[2]);
  EXPECT_EQ(cut_off.line, "relay database, NOT connected to its source");
  ASSERT_TRUE(cut_off.problem);
  EXPECT_NE(cut_off.problem->find("http://a:10476 serves it as a relay not connected"),
            std::string::npos)
      << *cut_off.problem;
  const auto unread = DescribeWithoutRaft(r[3]);
  EXPECT_EQ(unread.line, "standalone database, not read: no reply within 1s");
  EXPECT_EQ(unread.problem, "http://a:10476 cannot read it: no reply within 1s");
}

// Beside a cluster, a relay of the same database is shown, never counted as a member.
TEST(ServedWithoutRaftTest, ARelayBesideAClusterIsNoVote) {
  auto statuses = Honest();
  MemberReport relay;
  relay.source = "http://r";
  relay.db = "OVN_Northbound";
  relay.model = DatabaseModel::kRelay;
  relay.connected = true;
  statuses.push_back(U("http://r", {relay}));
  const auto db = SortByTrust(statuses).at("OVN_Northbound");
  EXPECT_TRUE(db.untrusted.empty());
  EXPECT_EQ(db.cluster_id, "c1");
  ASSERT_EQ(db.members.size(), 4u);
  std::vector<MemberReport> raft;
  for (const auto& m : db.members) {
    if (!ServedWithoutRaft(m)) raft.push_back(m);
  }
  ASSERT_EQ(raft.size(), 3u);
  const auto clusters = AnalyzeConsensus(raft, {3, {}});
  ASSERT_EQ(clusters.size(), 1u);
  EXPECT_TRUE(DatabaseProblems(raft, clusters).empty());
}

}  // namespace
}  // namespace ovn_raft
