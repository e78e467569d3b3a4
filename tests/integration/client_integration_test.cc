// The client and the parser against real ovsdb-server Raft clusters: the parsed facts must
// match what the cluster actually is, in healthy and broken states.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <thread>

#include "ovsdb/jsonrpc_client.h"
#include "parsers/cluster_status_parser.h"
#include "raft_cluster.h"
#include "support/eventually.h"
#include "support/ovsdb_calls.h"

namespace ovn_raft {
namespace {

using testing::RaftCluster;

const char* const kDbs[] = {"nb", "sb"};

CallOptions Options() {
  CallOptions o;
  o.timeout = std::chrono::seconds(2);
  return o;
}

ClusterStatus Read(const RaftCluster& c, int member, const std::string& db) {
  const auto text =
      UnixctlCall(c.Ctl(member, db), "cluster/status", {RaftCluster::DbName(db)}, Options());
  EXPECT_TRUE(text.ok()) << (text.ok() ? "" : text.error().message);
  if (!text.ok()) return {};
  ClusterStatus s = ParseClusterStatus(text.value());
  EXPECT_TRUE(s.warnings.empty()) << text.value();
  return s;
}

ServerDatabase ReadServerDb(const RaftCluster& c, int member, const std::string& db) {
  const auto rows = SelectServerDatabases(c.Sock(member, db), RaftCluster::DbName(db), Options());
  EXPECT_TRUE(rows.ok()) << (rows.ok() ? "" : rows.error().message);
  if (rows.ok()) {
    for (const auto& row : rows.value()) {
      if (row.name == RaftCluster::DbName(db)) return row;
    }
  }
  ADD_FAILURE() << "no _Server row for " << db;
  return {};
}

using testing::Eventually;

std::string Address(const RaftCluster& c, int member, const std::string& db) {
  return "tcp:127.0.0." + std::to_string(member) + ":" + std::to_string(c.port(db));
}

// Every member of `alive` agrees on one leader, on the cluster ID, and on its own identity.
void ExpectHealthy(const RaftCluster& c, const std::vector<int>& alive, const std::string& db,
                   std::size_t view_size) {
  SCOPED_TRACE(db);
  const int leader = c.Leader(db);
  ASSERT_NE(leader, 0);
  const ClusterStatus lead = Read(c, leader, db);
  for (int m : alive) {
    SCOPED_TRACE("member " + std::to_string(m));
    const ClusterStatus s = Read(c, m, db);
    EXPECT_EQ(s.name, RaftCluster::DbName(db));
    EXPECT_EQ(s.status, MemberStatus::kClusterMember);
    EXPECT_EQ(s.address->raw, Address(c, m, db));
    EXPECT_EQ(s.cluster_uuid, lead.cluster_uuid);
    EXPECT_EQ(s.role, m == leader ? Role::kLeader : Role::kFollower);
    EXPECT_EQ(s.leader, m == leader ? std::string("self") : *lead.server_id);
    ASSERT_TRUE(s.servers.has_value());
    EXPECT_EQ(s.servers->size(), view_size);

    const ServerDatabase row = ReadServerDb(c, m, db);
    EXPECT_EQ(row.model, "clustered");
    EXPECT_TRUE(row.connected);
    EXPECT_EQ(row.leader, m == leader);
    EXPECT_EQ(row.sid, s.server_uuid);
    EXPECT_EQ(row.cid, s.cluster_uuid);
    EXPECT_TRUE(row.index.has_value());
  }
}

TEST(ClientIntegrationTest, HealthyClusterEveryMemberEveryDb) {
  RaftCluster c(3);
  for (const std::string db : kDbs) {
    ExpectHealthy(c, {1, 2, 3}, db, 3);
    // Each view names the three members at their real addresses, under distinct IDs.
    const ClusterStatus s = Read(c, 1, db);
    std::set<std::string> addresses, ids;
    for (const auto& e : *s.servers) {
      addresses.insert(e.address.raw);
      ids.insert(e.server_id);
    }
    EXPECT_EQ(addresses,
              (std::set<std::string>{Address(c, 1, db), Address(c, 2, db), Address(c, 3, db)}));
    EXPECT_EQ(ids.size(), 3u);
    // The leader prints replication progress for every member.
    const ClusterStatus lead = Read(c, c.Leader(db), db);
    for (const auto& e : *lead.servers) EXPECT_TRUE(e.match_index.has_value());
  }
}

TEST(ClientIntegrationTest, ErrorsFromTheRealServer) {
  RaftCluster c(1);
  const auto unknown_db = UnixctlCall(c.Ctl(1, "nb"), "cluster/status", {"NoSuchDb"}, Options());
  ASSERT_FALSE(unknown_db.ok());
  EXPECT_EQ(unknown_db.error().code, ErrorCode::kRpcError);
  EXPECT_NE(unknown_db.error().message.find("unknown"), std::string::npos)
      << unknown_db.error().message;
  const auto unknown_cmd = UnixctlCall(c.Ctl(1, "nb"), "no/such-command", {}, Options());
  ASSERT_FALSE(unknown_cmd.ok());
  EXPECT_EQ(unknown_cmd.error().code, ErrorCode::kRpcError);
  // A socket of the wrong kind answers, but not with what the caller asked.
  const auto wrong = SelectServerDatabases(c.Ctl(1, "nb"), "OVN_Northbound", Options());
  EXPECT_FALSE(wrong.ok());
}

TEST(ClientIntegrationTest, MemberThatLeftAnswersUnknownCluster) {
  RaftCluster c(3);
  const int leaver = c.Leader("nb") == 3 ? 2 : 3;
  // The test itself asks the member to leave; the exporter never sends such a command.
  ASSERT_EQ(
      system(("ovs-appctl -t " + c.Ctl(leaver, "nb") + " cluster/leave OVN_Northbound").c_str()),
      0);
  ASSERT_TRUE(Eventually([&] {
    return !UnixctlCall(c.Ctl(leaver, "nb"), "cluster/status", {"OVN_Northbound"}, Options()).ok();
  }));
  const auto left =
      UnixctlCall(c.Ctl(leaver, "nb"), "cluster/status", {"OVN_Northbound"}, Options());
  EXPECT_EQ(left.error().code, ErrorCode::kRpcError);
  EXPECT_EQ(left.error().message, "unknown cluster");
  // The others now count two members.
  ASSERT_TRUE(Eventually([&] { return Read(c, c.Leader("nb"), "nb").servers->size() == 2; }));
}

TEST(ClientIntegrationTest, LeaderKilledNewLeaderElected) {
  RaftCluster c(3);
  const int old_leader = c.Leader("nb");
  const std::string old_id = *Read(c, old_leader, "nb").server_id;
  c.Kill(old_leader);
  std::vector<int> alive;
  for (int m = 1; m <= 3; ++m)
    if (m != old_leader) alive.push_back(m);
  for (const std::string db : kDbs) {
    ASSERT_TRUE(Eventually([&] {
      const int l = c.Leader(db);
      return l != 0 && l != old_leader && Read(c, alive[0], db).leader != "unknown" &&
             Read(c, alive[1], db).leader != "unknown";
    })) << db;
    // The dead member stays in the membership: 3 entries, 2 alive.
    ExpectHealthy(c, alive, db, 3);
  }
  const ClusterStatus s = Read(c, alive[0], "nb");
  const bool still_named = std::any_of(s.servers->begin(), s.servers->end(),
                                       [&](const ServerEntry& e) { return e.server_id == old_id; });
  EXPECT_TRUE(still_named);
  EXPECT_GT(*Read(c, c.Leader("nb"), "nb").term, 1u);
}

TEST(ClientIntegrationTest, TwoMembersKilledLeavesADisconnectedCandidate) {
  RaftCluster c(3);
  c.Kill(2);
  c.Kill(3);
  for (const std::string db : kDbs) {
    SCOPED_TRACE(db);
    ASSERT_TRUE(Eventually([&] {
      const ClusterStatus s = Read(c, 1, db);
      return s.role == Role::kCandidate && s.status == MemberStatus::kDisconnected;
    }));
    const ClusterStatus s = Read(c, 1, db);
    EXPECT_EQ(s.leader, "unknown");
    EXPECT_EQ(s.servers->size(), 3u);
    for (const auto& conn : *s.connections) EXPECT_FALSE(conn.connected);
    const ServerDatabase row = ReadServerDb(c, 1, db);
    EXPECT_FALSE(row.connected);
    EXPECT_FALSE(row.leader);
  }
}

TEST(ClientIntegrationTest, FreshRestartAddsASecondIdAtTheSameAddress) {
  RaftCluster c(3);
  const int leader = c.Leader("nb");
  const int victim = leader == 3 ? 2 : 3;
  std::map<std::string, std::string> old_ids;
  for (const std::string db : kDbs) old_ids[db] = *Read(c, victim, db).server_id;
  c.RestartFresh(victim);
  c.Wait();
  for (const std::string db : kDbs) {
    SCOPED_TRACE(db);
    const std::string victim_address = Address(c, victim, db);
    ASSERT_TRUE(Eventually([&] { return Read(c, victim, db).servers->size() == 4; }));
    const std::string new_id = *Read(c, victim, db).server_id;
    EXPECT_NE(new_id, old_ids[db]);
    for (int m = 1; m <= 3; ++m) {
      SCOPED_TRACE("member " + std::to_string(m));
      // Each member learns of the new server in its own time (a member's view can lag the
      // victim's by several servers): wait for every view, not the victim's alone.
      ASSERT_TRUE(Eventually([&] {
        const ClusterStatus v = Read(c, m, db);
        return v.servers && v.servers->size() == 4;
      }));
      const ClusterStatus s = Read(c, m, db);
      EXPECT_EQ(s.status, MemberStatus::kClusterMember);
      ASSERT_EQ(s.servers->size(), 4u);
      std::set<std::string> ids_at_victim;
      for (const auto& e : *s.servers) {
        if (e.address.raw == victim_address) ids_at_victim.insert(e.server_id);
      }
      EXPECT_EQ(ids_at_victim, (std::set<std::string>{old_ids[db], new_id}));
    }
  }
}

}  // namespace
}  // namespace ovn_raft
