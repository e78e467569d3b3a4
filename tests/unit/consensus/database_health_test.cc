#include "consensus/database_health.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

// A cluster of three that agrees, reports, has one leader and all three alive.
ClusterConsensus Healthy() {
  ClusterConsensus c;
  c.cluster_id = "c1a0";
  c.reporters = c.union_members = c.alive = c.majority_reporters = {"a", "b", "c"};
  c.views = 1;
  c.all_agree = c.has_majority = true;
  c.quorum = 2;
  c.leader_claims = 1;
  c.leader_ids = {"a"};
  c.expected_members = 3;
  return c;
}

TEST(DatabaseHealthTest, AHealthyClusterHasNoProblem) {
  EXPECT_TRUE(ClusterProblems(Healthy()).empty());
  EXPECT_TRUE(IsHealthy(Healthy()));
}

TEST(DatabaseHealthTest, EachProblemIsNamed) {
  auto c = Healthy();
  c.all_agree = false;
  c.silent = {{"x", 2}};
  c.union_members.insert("x");
  c.leader_claims = 2;
  c.leader_ids = {"a", "b"};
  const auto problems = ClusterProblems(c);
  EXPECT_EQ(problems, (std::vector<std::string>{
                          "the members' views of the membership disagree",
                          "1 named member(s) do not report",
                          "2 members claim to lead (want 1)",
                          "2 leaders known (want 1)",
                          "4 members, expected 3",
                      }));
  EXPECT_FALSE(IsHealthy(c));
}

TEST(DatabaseHealthTest, QuorumAtRiskIsAProblemButForAClusterOfOne) {
  auto c = Healthy();
  c.alive = {"a", "b"};  // one down: one more failure loses the quorum
  EXPECT_EQ(ClusterProblems(c),
            (std::vector<std::string>{"quorum at risk: one more failure loses it"}));
  c.alive = {"a"};
  EXPECT_EQ(ClusterProblems(c), (std::vector<std::string>{"quorum lost"}));
  auto one = Healthy();
  one.reporters = one.union_members = one.alive = one.majority_reporters = {"a"};
  one.quorum = 1;
  one.expected_members = 1;
  EXPECT_TRUE(IsHealthy(one));  // tolerates no failure, and never can
}

TEST(DatabaseHealthTest, ADatabaseAddsItsUnreadMembersAndSplitClusters) {
  MemberReport up, down;
  up.up = true;
  down.source = "http://10.0.0.3:10476";
  down.error = "socket_missing";
  auto other = Healthy();
  other.cluster_id = "d2b0";
  other.leader_claims = 0;
  EXPECT_TRUE(DatabaseProblems({up}, {Healthy()}).empty());
  EXPECT_EQ(DatabaseProblems({up, down}, {Healthy(), other}),
            (std::vector<std::string>{"http://10.0.0.3:10476 cannot read it: socket_missing",
                                      "2 cluster IDs among the members",
                                      "cluster d2b0: 0 members claim to lead (want 1)"}));
}

}  // namespace
}  // namespace ovn_raft
