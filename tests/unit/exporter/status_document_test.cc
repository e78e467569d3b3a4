#include "exporter/status_document.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include "parsers/cluster_status_parser.h"
#include "support/fixtures.h"

namespace ovn_raft {
namespace {

rapidjson::Document Parse(const std::string& json) {
  rapidjson::Document d;
  d.Parse(json.c_str());
  EXPECT_FALSE(d.HasParseError()) << json;
  return d;
}

// What the server says of itself is on /status as it said it, with what was not understood.
TEST(StatusDocumentTest, ServerFacts) {
  Snapshot s;
  s.taken_at = std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000));
  DatabaseReading r;
  r.target = {"OVN_Northbound", "/a.ctl", "/a.sock", ""};
  r.status = ParseClusterStatus(testing::Fixture("ovs-3.1.0/failed-leader.txt"));
  r.memory = ParseMemoryUsage("atoms:765 sessions:2 new-thing:4 junk");
  r.storage = StorageStatus{false, "inconsistent data"};
  r.server_seen_since = s.taken_at - std::chrono::hours(2);
  r.log_uncompacted_since = s.taken_at - std::chrono::hours(1);
  r.target.file_path = "/var/lib/ovn/ovnnb_db.db";
  r.file = DatabaseFileFacts{5'000'000, 1'000'000'000, 400'000'000};
  DatabaseReading sb;
  sb.target = {"OVN_Southbound", "/b.ctl", "", "/gone/ovnsb_db.db"};
  sb.file_error = Error{ErrorCode::kFileUnreadable, "stat /gone/ovnsb_db.db: No such file"};
  sb.memory_error = Error{ErrorCode::kTimeout, "no complete reply"};
  sb.storage_error = Error{ErrorCode::kRpcError, "Failed to find the database."};
  s.databases = {r, sb};

  const auto d = Parse(SnapshotToJson(s));
  const auto& nb = d["databases"][0];
  EXPECT_STREQ(nb["status"]["status"].GetString(), "failed");
  EXPECT_EQ(nb["memory"]["atoms"].GetUint64(), 765u);
  EXPECT_EQ(nb["memory"]["sessions"].GetUint64(), 2u);
  EXPECT_FALSE(nb["memory"].HasMember("cells"));  // not printed: not invented
  EXPECT_STREQ(nb["memory"]["unknown_keys"][0].GetString(), "new-thing");
  EXPECT_EQ(nb["memory"]["malformed"].GetUint64(), 1u);
  EXPECT_FALSE(nb["storage"]["ok"].GetBool());
  EXPECT_STREQ(nb["storage"]["error"].GetString(), "inconsistent data");
  EXPECT_EQ(nb["server_seen_since"].GetDouble(), 1'800'000'000 - 7200);
  EXPECT_EQ(nb["log_uncompacted_since"].GetDouble(), 1'800'000'000 - 3600);
  EXPECT_STREQ(nb["file"]["path"].GetString(), "/var/lib/ovn/ovnnb_db.db");
  EXPECT_EQ(nb["file"]["size_bytes"].GetUint64(), 5'000'000u);
  EXPECT_EQ(nb["file"]["filesystem_size_bytes"].GetUint64(), 1'000'000'000u);
  EXPECT_EQ(nb["file"]["filesystem_avail_bytes"].GetUint64(), 400'000'000u);
  EXPECT_FALSE(nb.HasMember("file_error"));
  const auto& down = d["databases"][1];
  EXPECT_STREQ(down["memory_error"]["reason"].GetString(), "timeout");
  EXPECT_STREQ(down["storage_error"]["reason"].GetString(), "rpc_error");
  EXPECT_FALSE(down.HasMember("memory"));
  EXPECT_FALSE(down.HasMember("server_seen_since"));
  EXPECT_STREQ(down["file_error"]["reason"].GetString(), "file_unreadable");
  EXPECT_FALSE(down.HasMember("file"));
}

// A database without Raft says what it is; its `up` stays a Raft member's entry's, so that
// ovn-raft-report does not take it for a member.
TEST(StatusDocumentTest, ModelOfADatabaseWithoutRaft) {
  Snapshot s;
  DatabaseReading relay;
  relay.target = {"OVN_Southbound", "/b.ctl", "/b.sock", ""};
  relay.server = ServerDatabase{"OVN_Southbound", "relay", true, false, {}, {}, {}};
  relay.model = DatabaseModel::kRelay;
  DatabaseReading member;
  member.target = {"OVN_Northbound", "/a.ctl", "", ""};
  member.status = ParseClusterStatus(testing::Fixture("ovs-3.1.0/leader.txt"));
  member.model = DatabaseModel::kClustered;
  DatabaseReading unread;
  unread.target = {"OVN_IC_Northbound", "/c.ctl", "", ""};
  unread.status_error = Error{ErrorCode::kSocketMissing, "gone"};
  s.databases = {relay, member, unread};
  ASSERT_TRUE(relay.up());

  const auto d = Parse(SnapshotToJson(s));
  EXPECT_STREQ(d["databases"][0]["model"].GetString(), "relay");
  EXPECT_FALSE(d["databases"][0]["up"].GetBool());
  EXPECT_FALSE(d["databases"][0].HasMember("error"));
  EXPECT_TRUE(d["databases"][0]["server"]["connected"].GetBool());
  EXPECT_STREQ(d["databases"][1]["model"].GetString(), "clustered");
  EXPECT_TRUE(d["databases"][1]["up"].GetBool());
  EXPECT_FALSE(d["databases"][2].HasMember("model"));
}

// What the exporter was told to expect is on /status, and says so when the size is unknown:
// the size checks are off for this member.
TEST(StatusDocumentTest, ExpectedCluster) {
  Snapshot s;
  const auto unknown = Parse(SnapshotToJson(s));
  ASSERT_TRUE(unknown["expected_cluster"].IsObject());
  EXPECT_TRUE(unknown["expected_cluster"]["size"].IsNull());
  EXPECT_EQ(unknown["expected_cluster"]["hosts"].Size(), 0u);
  EXPECT_FALSE(unknown["expected_cluster"]["size_checks"].GetBool());
  const auto members = Parse(SnapshotToJson(s, nullptr, ExpectedCluster{3, {}}));
  EXPECT_EQ(members["expected_cluster"]["size"].GetInt(), 3);
  EXPECT_TRUE(members["expected_cluster"]["size_checks"].GetBool());
  const auto hosts = Parse(SnapshotToJson(s, nullptr, ExpectedCluster{0, {"10.0.0.1", "fd00::2"}}));
  EXPECT_EQ(hosts["expected_cluster"]["size"].GetInt(), 2);
  ASSERT_EQ(hosts["expected_cluster"]["hosts"].Size(), 2u);
  EXPECT_STREQ(hosts["expected_cluster"]["hosts"][1].GetString(), "fd00::2");
  EXPECT_TRUE(hosts["expected_cluster"]["size_checks"].GetBool());
}

// Where the databases were looked for is on /status, and says so when none was found.
TEST(StatusDocumentTest, SocketDiscovery) {
  Snapshot s;
  const auto plain = Parse(SnapshotToJson(s));
  EXPECT_FALSE(plain.HasMember("socket_discovery"));  // --ovsdb.database given
  SocketDiscovery none = DiscoverDatabases(std::nullopt, [](const std::string&) { return false; });
  const auto d = Parse(SnapshotToJson(s, &none));
  ASSERT_TRUE(d["socket_discovery"]["tried"].IsArray());
  EXPECT_EQ(d["socket_discovery"]["tried"].Size(), 4u);
  EXPECT_STREQ(d["socket_discovery"]["tried"][2].GetString(), "/var/snap/microovn/common/run/ovn");
  EXPECT_TRUE(d["socket_discovery"]["found_in"].IsNull());
  EXPECT_EQ(d["socket_discovery"]["files_tried"].Size(), 0u);  // not looked for
  EXPECT_TRUE(d["socket_discovery"]["files_found_in"].IsNull());
  SocketDiscovery found = none;
  found.found_in = "/run/ovn";
  DiscoverDatabaseFiles(
      std::nullopt, [](const std::string& p) { return p == "/etc/ovn/ovnsb_db.db"; }, found);
  const auto f = Parse(SnapshotToJson(s, &found));
  EXPECT_STREQ(f["socket_discovery"]["found_in"].GetString(), "/run/ovn");
  EXPECT_EQ(f["socket_discovery"]["files_tried"].Size(), UsualDbDirs().size());
  EXPECT_STREQ(f["socket_discovery"]["files_found_in"].GetString(), "/etc/ovn");
}

}  // namespace
}  // namespace ovn_raft
