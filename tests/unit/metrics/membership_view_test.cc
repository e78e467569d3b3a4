#include "metrics/membership_view.h"

#include <gtest/gtest.h>

#include "parsers/cluster_status_parser.h"
#include "support/fixtures.h"

namespace ovn_raft {
namespace {

MembershipView FromFixture(const std::string& name) {
  return AnalyzeMembership(ParseClusterStatus(testing::Fixture(name)));
}

TEST(MembershipViewTest, HealthyThree) {
  const auto v = FromFixture("ovs-3.1.0/leader.txt");
  EXPECT_EQ(v.members, 3u);
  EXPECT_EQ(v.quorum_size, 2u);
  EXPECT_EQ(v.duplicate_hosts, 0u);
  EXPECT_EQ(v.duplicate_addresses, 0u);
  EXPECT_TRUE(v.self_in_view);
  EXPECT_FALSE(v.self_address_conflict);
  EXPECT_EQ(v.hash.size(), 16u);
}

TEST(MembershipViewTest, QuorumArithmetic) {
  EXPECT_EQ(FromFixture("ovs-3.1.0/five-leader.txt").quorum_size, 3u);
  // Four members (a stale ID after a fresh restart): the stale ID raises the quorum to 3.
  const auto four = FromFixture("ovs-3.1.0/fresh-restart-leader.txt");
  EXPECT_EQ(four.members, 4u);
  EXPECT_EQ(four.quorum_size, 3u);
  const auto joining = FromFixture("ovs-3.1.0/joining.txt");
  EXPECT_EQ(joining.members, 0u);
  EXPECT_EQ(joining.quorum_size, 0u);
  EXPECT_FALSE(joining.self_in_view);
}

TEST(MembershipViewTest, FreshRestartConflicts) {
  const auto leader = FromFixture("ovs-3.1.0/fresh-restart-leader.txt");
  EXPECT_EQ(leader.duplicate_hosts, 1u);
  EXPECT_EQ(leader.duplicate_addresses, 1u);
  EXPECT_FALSE(leader.self_address_conflict);  // the leader's own address is not the shared one
  const auto rejoined = FromFixture("ovs-3.1.0/fresh-restart-rejoined.txt");
  EXPECT_TRUE(rejoined.self_address_conflict);
}

TEST(MembershipViewTest, HashIgnoresOrderAndSelfButNotMembership) {
  const char* a =
      "Server ID: 0001 (0001)\nAddress: tcp:10.0.0.1:6643\nServers:\n"
      "    0001 (0001 at tcp:10.0.0.1:6643) (self)\n    0002 (0002 at tcp:10.0.0.2:6643)\n";
  const char* b =
      "Server ID: 0002 (0002)\nAddress: tcp:10.0.0.2:6643\nServers:\n"
      "    0002 (0002 at tcp:10.0.0.2:6643) (self) last msg 5 ms ago\n"
      "    0001 (0001 at tcp:10.0.0.1:6643) next_index=3 match_index=2\n";
  const char* c =
      "Servers:\n    0001 (0001 at tcp:10.0.0.1:6643)\n    0002 (0002 at tcp:10.0.0.9:6643)\n";
  const auto ha = AnalyzeMembership(ParseClusterStatus(a)).hash;
  EXPECT_EQ(ha, AnalyzeMembership(ParseClusterStatus(b)).hash);
  EXPECT_NE(ha, AnalyzeMembership(ParseClusterStatus(c)).hash);
}

TEST(MembershipViewTest, DuplicateShortIds) {
  const auto v = AnalyzeMembership(ParseClusterStatus(
      "Servers:\n    ab12 (ab12 at tcp:10.0.0.1:1)\n    ab12 (ab12 at tcp:10.0.0.2:1)\n"));
  EXPECT_EQ(v.duplicate_short_ids, 1u);
  EXPECT_EQ(v.duplicate_hosts, 0u);
}

}  // namespace
}  // namespace ovn_raft
