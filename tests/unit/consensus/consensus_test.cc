#include "consensus/consensus.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

MemberReport Member(const std::string& id, const std::string& role, const std::string& leader,
                    std::map<std::string, std::string> view, const std::string& cid = "c1") {
  MemberReport m;
  m.db = "OVN_Northbound";
  m.up = true;
  m.cluster_id = cid;
  m.server_id = id;
  m.role = role;
  m.leader = leader;
  m.view = std::move(view);
  return m;
}

const std::map<std::string, std::string> kThree{
    {"a", "tcp:10.0.0.1:6643"}, {"b", "tcp:10.0.0.2:6643"}, {"c", "tcp:10.0.0.3:6643"}};

TEST(ConsensusTest, Healthy) {
  const auto r =
      AnalyzeConsensus({Member("a", "leader", "a", kThree), Member("b", "follower", "a", kThree),
                        Member("c", "follower", "a", kThree)},
                       {3, {}});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].all_agree);
  EXPECT_TRUE(r[0].has_majority);
  EXPECT_EQ(r[0].majority_reporters.size(), 3u);
  EXPECT_TRUE(r[0].silent.empty());
  EXPECT_TRUE(r[0].stale_suspects.empty());
  EXPECT_EQ(r[0].leaders, 1);
  EXPECT_EQ(r[0].leader_ids, (std::set<std::string>{"a"}));
}

TEST(ConsensusTest, FreshRestartNamesTheStaleId) {
  auto four = kThree;
  four["d"] = "tcp:10.0.0.3:6643";  // c restarted as d at the same address
  const auto r =
      AnalyzeConsensus({Member("a", "leader", "a", four), Member("b", "follower", "a", four),
                        Member("d", "follower", "a", four)},
                       {3, {}});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].silent, (std::map<std::string, int>{{"c", 3}}));
  EXPECT_EQ(r[0].host_conflicts.at("10.0.0.3"), (std::set<std::string>{"c", "d"}));
  EXPECT_EQ(r[0].stale_suspects, (std::set<std::string>{"c"}));
  EXPECT_EQ(r[0].union_members.size(), 4u);
}

TEST(ConsensusTest, MinorityAndNoMajority) {
  auto other = kThree;
  other.erase("c");
  const auto two_one =
      AnalyzeConsensus({Member("a", "leader", "a", kThree), Member("b", "follower", "a", kThree),
                        Member("c", "follower", "a", other)},
                       {});
  EXPECT_TRUE(two_one[0].has_majority);
  EXPECT_EQ(two_one[0].minority_reporters, (std::set<std::string>{"c"}));
  auto third = kThree;
  third["x"] = "tcp:10.0.0.9:6643";
  const auto none =
      AnalyzeConsensus({Member("a", "leader", "a", kThree), Member("b", "leader", "b", third),
                        Member("c", "follower", "a", other)},
                       {3, {}});
  EXPECT_FALSE(none[0].has_majority);
  EXPECT_EQ(none[0].views, 3u);
  EXPECT_EQ(none[0].leaders, 2);
  EXPECT_EQ(none[0].stale_suspects, (std::set<std::string>{"x"}));  // silent, 4 > 3 expected
}

TEST(ConsensusTest, ClusterIdsAreSeparateAndJoiningMembersIgnored) {
  MemberReport joining = Member("j", "follower", "unknown", {}, "");
  MemberReport down = Member("z", "", "", {});
  down.up = false;
  const auto r = AnalyzeConsensus(
      {Member("a", "leader", "a", kThree), Member("b", "follower", "a", kThree),
       Member("e", "leader", "e", {{"e", "tcp:10.0.0.3:6643"}}, "c2"), joining, down},
      {3, {}});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].cluster_id, "c1");
  EXPECT_EQ(r[0].silent, (std::map<std::string, int>{{"c", 2}}));
  EXPECT_TRUE(r[0].stale_suspects.empty());
  EXPECT_EQ(r[1].cluster_id, "c2");
}

// Seed 000's analysis: a node replaced (10.0.0.3 gone, its member c silent; d joined from
// the new node 10.0.0.4), with the expected hosts Kube-OVN's NODE_IPS would give.
TEST(ConsensusTest, NodeReplacedRanksTheOldIdFirst) {
  auto four = kThree;
  four["d"] = "tcp:10.0.0.4:6643";
  const ExpectedCluster expected{3, {"10.0.0.1", "10.0.0.2", "10.0.0.4"}};
  const auto r =
      AnalyzeConsensus({Member("a", "leader", "a", four), Member("b", "follower", "a", four),
                        Member("d", "follower", "a", four)},
                       expected);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].unexpected_hosts, (std::set<std::string>{"10.0.0.3"}));
  EXPECT_EQ(r[0].unexpected_members.at({"c", "tcp:10.0.0.3:6643"}), 3);
  EXPECT_TRUE(r[0].missing_hosts.empty());
  // host not expected (1000) + silent (100) + 10 - named by 3
  EXPECT_EQ(r[0].suspect_scores.at("c"), 1107);
  EXPECT_EQ(r[0].suspect_scores.at("a"), 7);
  EXPECT_EQ(r[0].ranked_suspects, (std::vector<std::string>{"c"}));
  // The same without expected hosts: only the size says it, still c (the only silent one).
  const auto without =
      AnalyzeConsensus({Member("a", "leader", "a", four), Member("b", "follower", "a", four),
                        Member("d", "follower", "a", four)},
                       {3, {}});
  EXPECT_EQ(without[0].ranked_suspects, (std::vector<std::string>{"c"}));
  EXPECT_TRUE(without[0].unexpected_hosts.empty());
}

TEST(ConsensusTest, ExpectedHostWithoutMember) {
  const auto r =
      AnalyzeConsensus({Member("a", "leader", "a", kThree), Member("b", "follower", "a", kThree)},
                       {4, {"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"}});
  EXPECT_EQ(r[0].missing_hosts, (std::set<std::string>{"10.0.0.4"}));
  EXPECT_TRUE(r[0].unexpected_hosts.empty());
}

TEST(ConsensusTest, EachViewsDifferencesFromTheMajority) {
  auto majority = kThree;
  majority["d"] = "tcp:10.0.0.4:6643";
  const std::map<std::string, std::string> odd{{"a", "tcp:10.0.0.1:6643"},
                                               {"b", "tcp:10.0.0.9:6643"},
                                               {"c", "tcp:10.0.0.3:6643"},
                                               {"x", "tcp:10.0.0.8:6643"}};
  const auto r =
      AnalyzeConsensus({Member("a", "leader", "a", majority),
                        Member("b", "follower", "a", majority), Member("c", "follower", "a", odd)},
                       {4, {}});
  ASSERT_TRUE(r[0].has_majority);
  EXPECT_EQ(r[0].majority_view, majority);
  EXPECT_TRUE(r[0].differences.at("a").empty());
  const auto& d = r[0].differences.at("c");
  EXPECT_EQ(d.missing, (std::set<std::string>{"d"}));
  EXPECT_EQ(d.extra, (std::set<std::string>{"x"}));
  EXPECT_EQ(d.moved.at("b"),
            std::make_pair(std::string("tcp:10.0.0.9:6643"), std::string("tcp:10.0.0.2:6643")));
  // 5 named, 4 expected: one suspect, the least named silent one (x: 109 > d: 108).
  EXPECT_EQ(r[0].ranked_suspects, (std::vector<std::string>{"x"}));
  // Without a majority, no differences (as in seed 000).
  const auto none =
      AnalyzeConsensus({Member("a", "leader", "a", majority), Member("b", "follower", "a", kThree),
                        Member("c", "follower", "a", odd)},
                       {});
  EXPECT_FALSE(none[0].has_majority);
  EXPECT_TRUE(none[0].differences.empty());
}

TEST(ConsensusTest, SuspectsTrimmedToTheExcessWithTiesKept) {
  // Two silent members named equally, one too many: both tie at the top and both are kept.
  std::map<std::string, std::string> view = kThree;
  view["x"] = "tcp:10.0.0.8:6643";
  view["y"] = "tcp:10.0.0.9:6643";
  const auto tie =
      AnalyzeConsensus({Member("a", "leader", "a", view), Member("b", "follower", "a", view),
                        Member("c", "follower", "a", view)},
                       {4, {}});
  EXPECT_EQ(tie[0].stale_suspects, (std::set<std::string>{"x", "y"}));
  // Expected hosts break the tie: y's host is expected, x's is not.
  const auto ranked =
      AnalyzeConsensus({Member("a", "leader", "a", view), Member("b", "follower", "a", view),
                        Member("c", "follower", "a", view)},
                       {4, {"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.9"}});
  EXPECT_EQ(ranked[0].ranked_suspects, (std::vector<std::string>{"x"}));
}

TEST(ConsensusTest, HostOf) {
  EXPECT_EQ(HostOf("tcp:10.0.0.1:6643"), "10.0.0.1");
  EXPECT_EQ(HostOf("ssl:[fd00::1]:6643"), "fd00::1");
}

}  // namespace
}  // namespace ovn_raft
