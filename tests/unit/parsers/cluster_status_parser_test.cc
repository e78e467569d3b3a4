#include "parsers/cluster_status_parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "support/fixtures.h"

namespace ovn_raft {
namespace {

using testing::CapturedFixtures;
using testing::Fixture;

// Facts that hold for any well-formed member output, whatever IDs a capture happened to get.
void ExpectConsistentMember(const ClusterStatus& s) {
  ASSERT_TRUE(s.server_id.has_value());
  ASSERT_TRUE(s.server_uuid.has_value());
  EXPECT_EQ(s.server_uuid->substr(0, 4), *s.server_id);
  EXPECT_EQ(s.nickname, s.server_id);  // TCP/SSL addresses: the nickname is the short ID
  if (s.cluster_id_known) {
    EXPECT_EQ(s.cluster_uuid->substr(0, 4), *s.cluster_id);
  }
  ASSERT_TRUE(s.servers.has_value());
  if (s.status != MemberStatus::kJoining) {
    const auto self = std::count_if(s.servers->begin(), s.servers->end(),
                                    [](const ServerEntry& e) { return e.self; });
    EXPECT_EQ(self, 1);
    for (const auto& e : *s.servers) {
      if (e.self) {
        EXPECT_EQ(e.server_id, *s.server_id);
        EXPECT_EQ(e.address.raw, s.address->raw);
      }
    }
  }
  // Only the leader prints replication indexes.
  for (const auto& e : *s.servers) {
    EXPECT_EQ(e.next_index.has_value(), s.role == Role::kLeader) << e.server_id;
    EXPECT_EQ(e.match_index.has_value(), s.role == Role::kLeader) << e.server_id;
  }
  ASSERT_TRUE(s.log_first_index && s.log_next_index);
  EXPECT_LE(*s.log_first_index, *s.log_next_index);
  EXPECT_TRUE(s.election_timer_ms.has_value());
  EXPECT_TRUE(s.disconnections.has_value());
  EXPECT_TRUE(s.connections.has_value());
}

TEST(ClusterStatusParserTest, EveryCapturedFixtureParsesWithoutWarnings) {
  const auto files = CapturedFixtures();
  ASSERT_GE(files.size(), 12u);
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    const ClusterStatus s = ParseClusterStatus(testing::ReadFile(f));
    EXPECT_TRUE(s.warnings.empty()) << s.warnings.front().reason << ": " << s.warnings.front().text;
    ExpectConsistentMember(s);
  }
}

// Captured live from ovsdb-server 4.0.0 while a fourth member joined.
TEST(ClusterStatusParserTest, RealAddingServerOn40) {
  const auto s = ParseClusterStatus(Fixture("ovs-4.0.0/leader-adding-server.txt"));
  EXPECT_TRUE(s.warnings.empty());
  ASSERT_EQ(s.adding_servers.size(), 1u);
  EXPECT_EQ(s.adding_servers[0].address.host, "127.0.0.4");
  EXPECT_EQ(s.adding_servers[0].phase_text, "adding: catchup");
  EXPECT_EQ(s.role, Role::kLeader);
}

// Captured live while the leader's followers were frozen (SIGSTOP), so that the change of its
// election timer stayed uncommitted; 3.1.0 also caught a member joining.
TEST(ClusterStatusParserTest, RealTimerChangeOnEveryRelease) {
  for (const std::string version : {"ovs-3.1.0", "ovs-3.5.0", "ovs-4.0.0"}) {
    SCOPED_TRACE(version);
    const auto s = ParseClusterStatus(Fixture(version + "/leader-changing-timer.txt"));
    EXPECT_TRUE(s.warnings.empty());
    EXPECT_EQ(s.election_timer_ms, 1000u);
    EXPECT_EQ(s.election_timer_target_ms, 2000u);
    EXPECT_EQ(s.role, Role::kLeader);
  }
  const auto adding = ParseClusterStatus(Fixture("ovs-3.1.0/leader-adding-server.txt"));
  ASSERT_EQ(adding.adding_servers.size(), 1u);
  EXPECT_EQ(adding.adding_servers[0].phase_text, "adding: catchup");
}

// A leader whose database disk filled up (scripts/raft-cluster.sh disk + fill): failure mode
// shows as "Status: failed", and the role it had stays, frozen, while the others elect anew.
TEST(ClusterStatusParserTest, LeaderFailedOnAFullDisk) {
  for (const std::string version : {"ovs-3.1.0", "ovs-3.5.0", "ovs-4.0.0"}) {
    SCOPED_TRACE(version);
    const auto s = ParseClusterStatus(Fixture(version + "/failed-leader.txt"));
    EXPECT_TRUE(s.warnings.empty());
    EXPECT_EQ(s.status, MemberStatus::kFailed);
    EXPECT_EQ(s.role, Role::kLeader);
    EXPECT_EQ(s.leader, "self");
    ASSERT_TRUE(s.servers);
    EXPECT_EQ(s.servers->size(), 3u);
  }
}

// Every release captured prints the same facts for the same states: 3.5.0 (Debian 13) between
// 3.1.0 (Debian 12) and 4.0.0 (Debian unstable), all parsed alike.
TEST(ClusterStatusParserTest, EveryReleaseCapturedTheSameStates) {
  for (const std::string state :
       {"leader", "follower", "leader-sb", "fresh-restart-leader", "fresh-restart-rejoined",
        "disconnected-candidate", "joining", "leaving", "five-leader", "five-follower",
        "ipv6-single", "failed-leader"}) {
    std::optional<ClusterStatus> first;
    for (const std::string version : {"ovs-3.1.0", "ovs-3.5.0", "ovs-4.0.0"}) {
      SCOPED_TRACE(version + "/" + state);
      const auto s = ParseClusterStatus(Fixture(version + "/" + state + ".txt"));
      EXPECT_TRUE(s.warnings.empty());
      if (!first) {
        first = s;
        continue;
      }
      EXPECT_EQ(s.status, first->status);
      // A member stuck leaving without a majority flips between follower and candidate.
      if (state != "leaving") {
        EXPECT_EQ(s.role, first->role);
      }
      EXPECT_EQ(s.servers.has_value(), first->servers.has_value());
      if (s.servers && first->servers) {
        EXPECT_EQ(s.servers->size(), first->servers->size());
      }
      EXPECT_EQ(s.address->scheme, first->address->scheme);
      EXPECT_EQ(s.address->host, first->address->host);
    }
  }
}

TEST(ClusterStatusParserTest, RealLeader) {
  const ClusterStatus s = ParseClusterStatus(Fixture("ovs-3.1.0/leader.txt"));
  EXPECT_EQ(s.name, "OVN_Northbound");
  EXPECT_EQ(s.status, MemberStatus::kClusterMember);
  EXPECT_EQ(s.status_text, "cluster member");
  EXPECT_EQ(s.role, Role::kLeader);
  EXPECT_EQ(s.leader, "self");
  EXPECT_EQ(s.vote, "self");
  EXPECT_TRUE(s.last_election_started_ms_ago.has_value());
  EXPECT_EQ(s.last_election_reason, ElectionReason::kTimeout);
  EXPECT_TRUE(s.last_election_won_ms_ago.has_value());
  EXPECT_EQ(s.election_timer_ms, 1000u);
  EXPECT_FALSE(s.election_timer_target_ms.has_value());
  EXPECT_EQ(s.entries_not_committed, 0u);
  EXPECT_EQ(s.entries_not_applied, 0u);
  EXPECT_EQ(s.address->scheme, "tcp");
  EXPECT_EQ(s.address->host, "127.0.0.1");
  ASSERT_EQ(s.servers->size(), 3u);
  std::set<std::string> hosts;
  for (const auto& e : *s.servers) hosts.insert(e.address.host);
  EXPECT_EQ(hosts, (std::set<std::string>{"127.0.0.1", "127.0.0.2", "127.0.0.3"}));
  // Both directions to both peers, all up.
  ASSERT_EQ(s.connections->size(), 4u);
  for (const auto& c : *s.connections) EXPECT_TRUE(c.connected);
  EXPECT_FALSE(s.remotes_for_joining.has_value());
}

TEST(ClusterStatusParserTest, RealFollower) {
  const ClusterStatus s = ParseClusterStatus(Fixture("ovs-3.1.0/follower.txt"));
  EXPECT_EQ(s.role, Role::kFollower);
  ASSERT_TRUE(s.leader.has_value());
  EXPECT_EQ(s.leader->size(), 4u);  // a peer's short ID
  EXPECT_FALSE(s.last_election_won_ms_ago.has_value());
  const auto leader = std::find_if(s.servers->begin(), s.servers->end(),
                                   [&](const ServerEntry& e) { return e.server_id == *s.leader; });
  ASSERT_NE(leader, s.servers->end());
  EXPECT_TRUE(leader->last_msg_ms_ago.has_value());
}

TEST(ClusterStatusParserTest, RealFreshRestartSharesAnAddress) {
  const ClusterStatus s = ParseClusterStatus(Fixture("ovs-3.1.0/fresh-restart-leader.txt"));
  ASSERT_EQ(s.servers->size(), 4u);
  std::set<std::string> ids, hosts;
  for (const auto& e : *s.servers) {
    ids.insert(e.server_id);
    hosts.insert(e.address.host);
  }
  EXPECT_EQ(ids.size(), 4u);
  EXPECT_EQ(hosts.size(), 3u);
}

TEST(ClusterStatusParserTest, RealDisconnectedCandidate) {
  const ClusterStatus s = ParseClusterStatus(Fixture("ovs-3.1.0/disconnected-candidate.txt"));
  EXPECT_EQ(s.status, MemberStatus::kDisconnected);
  EXPECT_EQ(s.status_text, "disconnected from the cluster (election timeout)");
  EXPECT_EQ(s.role, Role::kCandidate);
  EXPECT_EQ(s.leader, "unknown");
  for (const auto& c : *s.connections) EXPECT_FALSE(c.connected);
  for (const auto& e : *s.servers) {
    if (e.self) {
      EXPECT_EQ(e.voted_for, *s.server_id);
    }
  }
}

TEST(ClusterStatusParserTest, RealLeaving) {
  const ClusterStatus s = ParseClusterStatus(Fixture("ovs-3.1.0/leaving.txt"));
  EXPECT_EQ(s.status, MemberStatus::kLeaving);
}

TEST(ClusterStatusParserTest, RealJoining) {
  const ClusterStatus s = ParseClusterStatus(Fixture("ovs-3.1.0/joining.txt"));
  EXPECT_EQ(s.status, MemberStatus::kJoining);
  EXPECT_FALSE(s.cluster_id_known);
  EXPECT_FALSE(s.cluster_id.has_value());
  ASSERT_TRUE(s.remotes_for_joining.has_value());
  EXPECT_EQ(s.remotes_for_joining->size(), 2u);
  EXPECT_EQ(s.term, 0u);
  ASSERT_EQ(s.connections->size(), 2u);
  EXPECT_EQ((*s.connections)[0].peer, "0000");
  EXPECT_FALSE((*s.connections)[0].connected);
  ASSERT_TRUE(s.servers.has_value());
  EXPECT_TRUE(s.servers->empty());
}

TEST(ClusterStatusParserTest, RealFiveMembers) {
  EXPECT_EQ(ParseClusterStatus(Fixture("ovs-3.1.0/five-leader.txt")).servers->size(), 5u);
  EXPECT_EQ(ParseClusterStatus(Fixture("ovs-3.1.0/five-follower.txt")).servers->size(), 5u);
}

TEST(ClusterStatusParserTest, RealIpv6AndSsl) {
  const ClusterStatus v6 = ParseClusterStatus(Fixture("ovs-3.1.0/ipv6-single.txt"));
  EXPECT_EQ(v6.address->host, "::1");
  EXPECT_EQ((*v6.servers)[0].address.host, "::1");
  EXPECT_TRUE(v6.connections->empty());
  const ClusterStatus ssl = ParseClusterStatus(Fixture("ovs-3.1.0/ssl-single.txt"));
  EXPECT_EQ(ssl.address->scheme, "ssl");
  EXPECT_EQ(ssl.address->host, "127.0.0.1");
}

TEST(ClusterStatusParserTest, Ovs210LacksNewerLines) {
  const ClusterStatus s = ParseClusterStatus(Fixture("documented/ovs-2.10-leader.txt"));
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_EQ(s.role, Role::kLeader);
  EXPECT_EQ(s.term, 4u);
  EXPECT_FALSE(s.election_timer_ms.has_value());
  EXPECT_FALSE(s.disconnections.has_value());
  EXPECT_FALSE(s.last_election_started_ms_ago.has_value());
  ASSERT_EQ(s.servers->size(), 3u);
  for (const auto& e : *s.servers) EXPECT_FALSE(e.last_msg_ms_ago.has_value());
  EXPECT_EQ((*s.servers)[1].next_index, 1187u);
  EXPECT_EQ(s.log_first_index, 2u);
  EXPECT_EQ(s.log_next_index, 1187u);
}

TEST(ClusterStatusParserTest, Ovs212HasElectionTimerOnly) {
  const ClusterStatus s = ParseClusterStatus(Fixture("documented/ovs-2.12-follower.txt"));
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_EQ(s.election_timer_ms, 5000u);
  EXPECT_FALSE(s.disconnections.has_value());
  EXPECT_EQ(s.leader, "1d5e");
  EXPECT_EQ(s.vote, "1d5e");
  EXPECT_EQ(s.address->scheme, "ssl");
}

TEST(ClusterStatusParserTest, ElectionTimerChanging) {
  const ClusterStatus s =
      ParseClusterStatus(Fixture("documented/ovs-2.13-leader-changing-timer.txt"));
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_EQ(s.election_timer_ms, 5000u);
  EXPECT_EQ(s.election_timer_target_ms, 10000u);
  EXPECT_EQ(s.entries_not_committed, 1u);
  EXPECT_FALSE((*s.connections)[2].connected);
}

TEST(ClusterStatusParserTest, MembershipChangesOnLeader) {
  const ClusterStatus s =
      ParseClusterStatus(Fixture("documented/ovs-3.x-leader-membership-change.txt"));
  EXPECT_TRUE(s.warnings.empty());
  ASSERT_EQ(s.adding_servers.size(), 1u);
  EXPECT_EQ(s.adding_servers[0].server_id, "4e5f");
  EXPECT_EQ(s.adding_servers[0].address.host, "fd00:10::14");
  EXPECT_EQ(s.adding_servers[0].phase_text, "adding: catchup");
  ASSERT_TRUE(s.removing_server.has_value());
  EXPECT_EQ(s.removing_server->server_id, "3c4d");
  EXPECT_EQ(s.last_election_reason, ElectionReason::kLeadershipTransfer);
  EXPECT_EQ(s.last_election_started_ms_ago, 86400123u);
  EXPECT_EQ((*s.servers)[2].phase, ServerPhase::kRemoving);
  EXPECT_EQ((*s.servers)[3].phase, ServerPhase::kCaughtUp);
  EXPECT_EQ(s.disconnections, 7u);
}

TEST(ClusterStatusParserTest, CandidateVotesAndDnsAddresses) {
  const ClusterStatus s = ParseClusterStatus(Fixture("documented/ovs-3.x-candidate-votes.txt"));
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_EQ(s.nickname, "ovnsb_db.ctl");
  EXPECT_EQ(s.role, Role::kCandidate);
  EXPECT_EQ((*s.servers)[0].voted_for, "1d5e");
  EXPECT_EQ((*s.servers)[0].address.host,
            "ovn-central-0.ovn-central.kube-system.svc.cluster.local");
  EXPECT_EQ((*s.servers)[0].address.port, 6644);
}

TEST(ClusterStatusParserTest, UnknownAndMalformedLinesBecomeWarnings) {
  const ClusterStatus s = ParseClusterStatus(
      "abcd\nName: X\nTerm: lots\nFancy new line: 7\nRole: emperor\nStatus: dancing\n"
      "Log: [1,\nElection timer: 5 (changing)\nServers:\n    garbage\n");
  EXPECT_EQ(s.name, "X");
  EXPECT_FALSE(s.term.has_value());
  EXPECT_FALSE(s.role.has_value());
  EXPECT_FALSE(s.status.has_value());
  EXPECT_EQ(s.status_text, "dancing");
  EXPECT_FALSE(s.log_first_index.has_value());
  ASSERT_EQ(s.warnings.size(), 7u);
  EXPECT_EQ(s.warnings[0].line, 3);
  EXPECT_EQ(s.warnings[1].text, "Fancy new line: 7");
  EXPECT_TRUE(s.servers->empty());
}

TEST(ClusterStatusParserTest, EmptyAndCrlfInput) {
  const ClusterStatus empty = ParseClusterStatus("");
  EXPECT_FALSE(empty.name.has_value());
  EXPECT_TRUE(empty.warnings.empty());
  const ClusterStatus crlf = ParseClusterStatus("abcd\r\nName: OVN_Northbound\r\nTerm: 3\r\n");
  EXPECT_EQ(crlf.name, "OVN_Northbound");
  EXPECT_EQ(crlf.term, 3u);
}

TEST(ClusterStatusParserTest, SurvivesRandomMutationsOfRealOutput) {
  // A quick in-test cousin of the fuzzer: mangle real output and require a clean return.
  const std::string base = Fixture("ovs-3.1.0/leader.txt");
  std::mt19937 rng(42);
  for (int i = 0; i < 2000; ++i) {
    std::string text = base;
    for (int k = 0; k < 5; ++k) {
      text[rng() % text.size()] = static_cast<char>(rng() % 256);
    }
    text.resize(rng() % (text.size() + 1));
    const ClusterStatus s = ParseClusterStatus(text);
    EXPECT_LE(s.warnings.size(), 40u);
  }
}

}  // namespace
}  // namespace ovn_raft

namespace ovn_raft {
namespace {

// Every list from a reply is bounded, the excess counted: a reply of endless "Adding server"
// or junk lines must not become as many series, nor grow the process with it.
TEST(ClusterStatusParserTest, EveryListIsBoundedAndTheExcessCounted) {
  std::string text = testing::Fixture("ovs-3.1.0/leader.txt");
  for (int i = 0; i < 100000; ++i) {
    text += "Adding server a" + std::to_string(i % 1000) + " (a" + std::to_string(i % 1000) +
            " at tcp:10.0.0.1:6643) (adding: catchup)\n";
  }
  for (int i = 0; i < 10000; ++i) text += "Junk line " + std::to_string(i) + "\n";
  std::string connections = "Connections:";
  for (int i = 0; i < 5000; ++i) connections += " ->ab" + std::to_string(i % 10) + "c";
  text += connections + "\n";
  const ClusterStatus s = ParseClusterStatus(text);
  EXPECT_EQ(s.adding_servers.size(), kMaxListEntries);
  EXPECT_EQ(s.warnings.size(), kMaxListEntries);
  ASSERT_TRUE(s.connections);
  EXPECT_EQ(s.connections->size(), kMaxListEntries);
  EXPECT_EQ(s.entries_dropped,
            (100000 - kMaxListEntries) + (10000 - kMaxListEntries) + (5000 - kMaxListEntries));
  EXPECT_EQ(s.servers->size(), 3u);  // the real members are still there
  EXPECT_EQ(s.servers_dropped, 0u);
}

}  // namespace
}  // namespace ovn_raft
