#include "consensus/consensus.h"

#include <gtest/gtest.h>

#include "consensus/database_health.h"

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
  EXPECT_EQ(r[0].leader_claims, 1);
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
  EXPECT_EQ(none[0].leader_claims, 2);
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

TEST(ConsensusTest, TiedSuspectsAreUndecidedNotNamed) {
  // Two silent members named equally, one too many: the evidence cannot tell them apart, so
  // neither is named (no kick advised) and both are undecided.
  std::map<std::string, std::string> view = kThree;
  view["x"] = "tcp:10.0.0.8:6643";
  view["y"] = "tcp:10.0.0.9:6643";
  const auto tie =
      AnalyzeConsensus({Member("a", "leader", "a", view), Member("b", "follower", "a", view),
                        Member("c", "follower", "a", view)},
                       {4, {}});
  EXPECT_TRUE(tie[0].stale_suspects.empty());
  EXPECT_EQ(tie[0].undecided, (std::set<std::string>{"x", "y"}));
  // Two too many: both are needed to account for the excess, both named.
  const auto both =
      AnalyzeConsensus({Member("a", "leader", "a", view), Member("b", "follower", "a", view),
                        Member("c", "follower", "a", view)},
                       {3, {}});
  EXPECT_EQ(both[0].stale_suspects, (std::set<std::string>{"x", "y"}));
  EXPECT_TRUE(both[0].undecided.empty());
  // Expected hosts break the tie: y's host is expected, x's is not.
  const auto ranked =
      AnalyzeConsensus({Member("a", "leader", "a", view), Member("b", "follower", "a", view),
                        Member("c", "follower", "a", view)},
                       {4, {"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.9"}});
  EXPECT_EQ(ranked[0].ranked_suspects, (std::vector<std::string>{"x"}));
  EXPECT_TRUE(ranked[0].undecided.empty());
}

// The leader's word on who it hears from: last message within two election timers.
MemberReport Leader(const std::map<std::string, std::string>& view,
                    std::map<std::string, std::uint64_t> heard) {
  MemberReport m = Member("a", "leader", "a", view);
  m.election_timer_ms = 1000;
  m.heard_ms_ago = std::move(heard);
  m.connected = true;
  return m;
}

// Member c restarted fresh as d at the same address while its exporter was down.
// Both c and d are silent, named alike, on the same host; the leader hears d. Only c may be
// named: d is alive.
TEST(ConsensusTest, FreshRestartWithExporterDownNeverNamesTheLiveId) {
  auto four = kThree;
  four["d"] = "tcp:10.0.0.3:6643";
  auto b = Member("b", "follower", "a", four);
  b.connected = true;
  const auto r =
      AnalyzeConsensus({Leader(four, {{"b", 100}, {"c", 90000}, {"d", 120}}), b}, {3, {}});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].silent, (std::map<std::string, int>{{"c", 2}, {"d", 2}}));
  EXPECT_EQ(r[0].suspect_scores.at("c"), r[0].suspect_scores.at("d"));  // a tie by score
  EXPECT_EQ(r[0].alive, (std::set<std::string>{"a", "b", "d"}));
  EXPECT_EQ(r[0].stale_suspects, (std::set<std::string>{"c"}));
  EXPECT_TRUE(r[0].undecided.empty());
  // Without expectations, the host held by the live d is the evidence against c alone.
  const auto unexpected = AnalyzeConsensus({Leader(four, {{"b", 100}, {"d", 120}}), b}, {});
  EXPECT_EQ(unexpected[0].stale_suspects, (std::set<std::string>{"c"}));
  // The leader hears neither (member 3's node died after the restart): no kick for either.
  const auto dead = AnalyzeConsensus({Leader(four, {{"b", 100}}), b}, {3, {}});
  EXPECT_TRUE(dead[0].stale_suspects.empty());
  EXPECT_EQ(dead[0].undecided, (std::set<std::string>{"c", "d"}));
  EXPECT_TRUE(AnalyzeConsensus({Leader(four, {{"b", 100}}), b}, {})[0].stale_suspects.empty());
}

// A follower on a full disk: its own status says it is a healthy cluster member, the leader
// has not heard from it for 90 s. Named unheard, not alive, a problem; a member heard within
// two election timers, a member in failure mode and one that does not report are not.
TEST(ConsensusTest, MemberCallingItselfHealthyThatTheLeaderDoesNotHearIsUnheard) {
  auto leader = Leader(kThree, {{"b", 1999}, {"c", 90000}});
  leader.status = "cluster_member";
  auto b = Member("b", "follower", "a", kThree);
  b.status = "cluster_member";
  auto c = Member("c", "follower", "a", kThree);
  c.status = "cluster_member";
  const auto r = AnalyzeConsensus({leader, b, c}, {3, {}});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].unheard, (std::map<std::string, std::uint64_t>{{"c", 90000}}));
  EXPECT_EQ(r[0].alive, (std::set<std::string>{"a", "b"}));
  EXPECT_FALSE(IsHealthy(r[0]));
  // Heard 2 s ago with a 1 s timer is unheard; 1.999 s is not.
  leader.heard_ms_ago["b"] = 2000;
  EXPECT_EQ(AnalyzeConsensus({leader, b, c}, {3, {}})[0].unheard.size(), 2u);
  leader.heard_ms_ago["b"] = 100;
  c.status = "failed";  // OVNRaftMemberFailed's case
  EXPECT_TRUE(AnalyzeConsensus({leader, b, c}, {3, {}})[0].unheard.empty());
  EXPECT_TRUE(AnalyzeConsensus({leader, b}, {3, {}})[0].unheard.empty());  // c not reporting
  // c restarted 5 s ago, after the leader last heard it 90 s ago: rejoining, not unheard. Up
  // for longer than the leader's silence, it went unheard while running: unheard.
  c.status = "cluster_member";
  c.up_for_s = 5;
  EXPECT_TRUE(AnalyzeConsensus({leader, b, c}, {3, {}})[0].unheard.empty());
  c.up_for_s = 91;
  EXPECT_EQ(AnalyzeConsensus({leader, b, c}, {3, {}})[0].unheard.size(), 1u);
  // Rejoining lasts two minutes at most (its exporter, restarted, may have missed when it went
  // unheard).
  leader.heard_ms_ago["c"] = 900000;
  c.up_for_s = 119;
  EXPECT_TRUE(AnalyzeConsensus({leader, b, c}, {3, {}})[0].unheard.empty());
  c.up_for_s = 120;
  EXPECT_EQ(AnalyzeConsensus({leader, b, c}, {3, {}})[0].unheard.size(), 1u);
}

TEST(ConsensusTest, AliveWithoutTheLeadersReport) {
  // The leader's exporter is down: followers in contact with a majority vouch for themselves
  // and the peers they hold established connections with.
  auto b = Member("b", "follower", "a", kThree);
  b.connected = true;
  b.established = {"a"};
  auto c = Member("c", "follower", "a", kThree);
  c.connected = true;
  c.established = {"a", "b"};
  const auto r = AnalyzeConsensus({b, c}, {3, {}});
  EXPECT_EQ(r[0].alive, (std::set<std::string>{"a", "b", "c"}));
  EXPECT_EQ(r[0].leader_claims, 0);
  EXPECT_EQ(r[0].leader_ids, (std::set<std::string>{"a"}));  // the followers name it
  EXPECT_EQ(r[0].quorum, 2);
  EXPECT_EQ(VerdictOf(r[0]), QuorumVerdict::kHealthy);
  // A lone survivor out of contact: alive by its own word, quorum lost.
  auto lone = Member("b", "candidate", "unknown", kThree);
  lone.connected = false;
  const auto lost = AnalyzeConsensus({lone}, {3, {}});
  EXPECT_EQ(lost[0].alive, (std::set<std::string>{"b"}));
  EXPECT_EQ(lost[0].failure_tolerance(), -1);
  EXPECT_EQ(VerdictOf(lost[0]), QuorumVerdict::kLost);
  EXPECT_STREQ(QuorumVerdictName(VerdictOf(lost[0])), "quorum lost");
}

TEST(ConsensusTest, QuorumOfTheViewTheClusterActsOn) {
  // A stale x lingers in c's lagging view alone: the leader's view (3, quorum 2) counts.
  auto lagging = kThree;
  lagging["x"] = "tcp:10.0.0.9:6643";
  const auto r = AnalyzeConsensus(
      {Leader(kThree, {{"b", 10}, {"c", 10}}), Member("b", "follower", "a", kThree),
       Member("c", "follower", "a", lagging)},
      {});
  EXPECT_EQ(r[0].quorum, 2);
  EXPECT_EQ(r[0].failure_tolerance(), 1);
  // Without the leader's report, the majority view's (b and d agree; c lags).
  auto d = Member("d", "follower", "a", kThree);
  const auto majority = AnalyzeConsensus(
      {Member("b", "follower", "a", kThree), Member("c", "follower", "a", lagging), d}, {});
  EXPECT_EQ(majority[0].quorum, 2);
  // Two of five dead: at risk; three: lost.
  std::map<std::string, std::string> five = kThree;
  five["d"] = "tcp:10.0.0.4:6643";
  five["e"] = "tcp:10.0.0.5:6643";
  const auto at_risk =
      AnalyzeConsensus({Leader(five, {{"b", 10}, {"c", 10}}), Member("b", "follower", "a", five),
                        Member("c", "follower", "a", five)},
                       {5, {}});
  EXPECT_EQ(at_risk[0].quorum, 3);
  EXPECT_EQ(VerdictOf(at_risk[0]), QuorumVerdict::kAtRisk);
  EXPECT_FALSE(IsHealthy(at_risk[0]));
}

TEST(ConsensusTest, HealthyNeedsEverythingInOrder) {
  auto b = Member("b", "follower", "a", kThree);
  auto c = Member("c", "follower", "a", kThree);
  const auto healthy = AnalyzeConsensus({Leader(kThree, {{"b", 10}, {"c", 10}}), b, c}, {3, {}});
  EXPECT_TRUE(IsHealthy(healthy[0]));
  EXPECT_FALSE(IsHealthy(AnalyzeConsensus({Leader(kThree, {{"b", 10}, {"c", 10}}), b, c},
                                          {4, {}})[0]));  // one member short
  auto two_leaders = c;
  two_leaders.role = "leader";
  EXPECT_FALSE(
      IsHealthy(AnalyzeConsensus({Leader(kThree, {{"b", 10}}), b, two_leaders}, {3, {}})[0]));
  // A cluster of one tolerates no failure, by design.
  const std::map<std::string, std::string> one{{"a", "tcp:10.0.0.1:6643"}};
  EXPECT_TRUE(IsHealthy(AnalyzeConsensus({Leader(one, {})}, {1, {}})[0]));
}

TEST(ConsensusTest, HostOf) {
  EXPECT_EQ(HostOf("tcp:10.0.0.1:6643"), "10.0.0.1");
  EXPECT_EQ(HostOf("ssl:[fd00::1]:6643"), "fd00::1");
}

}  // namespace
}  // namespace ovn_raft
