#include "parsers/status_json.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include "parsers/cluster_status_parser.h"
#include "support/fixtures.h"

namespace ovn_raft {
namespace {

rapidjson::Document Json(const std::string& fixture) {
  rapidjson::Document d;
  d.Parse(ClusterStatusToJson(ParseClusterStatus(testing::Fixture(fixture))).c_str());
  EXPECT_FALSE(d.HasParseError());
  return d;
}

TEST(StatusJsonTest, LeaderKeys) {
  const auto d = Json("ovs-3.1.0/leader.txt");
  EXPECT_STREQ(d["role"].GetString(), "leader");
  EXPECT_STREQ(d["status"].GetString(), "cluster_member");
  EXPECT_TRUE(d["cluster_id_known"].GetBool());
  EXPECT_EQ(d["election_timer_ms"].GetUint64(), 1000u);
  EXPECT_EQ(d["servers"].Size(), 3u);
  EXPECT_TRUE(d["servers"][0].HasMember("next_index"));
  EXPECT_STREQ(d["servers"][0]["phase"].GetString(), "stable");
  EXPECT_STREQ(d["address"]["host"].GetString(), "127.0.0.1");
  EXPECT_STREQ(d["connections"][0]["direction"].GetString(), "inbound");
  EXPECT_TRUE(d["warnings"].GetArray().Empty());
}

TEST(StatusJsonTest, AbsentLinesAreAbsentKeys) {
  const auto d = Json("documented/ovs-2.10-leader.txt");
  EXPECT_FALSE(d.HasMember("election_timer_ms"));
  EXPECT_FALSE(d.HasMember("disconnections"));
  EXPECT_FALSE(d.HasMember("last_election_started_ms_ago"));
  EXPECT_FALSE(d["servers"][0].HasMember("last_msg_ms_ago"));
}

TEST(StatusJsonTest, JoiningHasNoClusterId) {
  const auto d = Json("ovs-3.1.0/joining.txt");
  EXPECT_FALSE(d["cluster_id_known"].GetBool());
  EXPECT_FALSE(d.HasMember("cluster_id"));
  EXPECT_EQ(d["remotes_for_joining"].Size(), 2u);
  EXPECT_FALSE(d["connections"][0]["peer_known"].GetBool());
}

TEST(StatusJsonTest, WarningsAreListed) {
  rapidjson::Document d;
  d.Parse(ClusterStatusToJson(ParseClusterStatus("x\nWhat: now\n"), false).c_str());
  ASSERT_EQ(d["warnings"].Size(), 1u);
  EXPECT_EQ(d["warnings"][0]["line"].GetInt(), 2);
  EXPECT_STREQ(d["warnings"][0]["text"].GetString(), "What: now");
}

}  // namespace
}  // namespace ovn_raft
