#include "reader/model_reading.h"

#include <gtest/gtest.h>

#include "parsers/cluster_status_parser.h"
#include "support/fixtures.h"

namespace ovn_raft {
namespace {

// What ovsdb-server 3.1.0 answers cluster/status with when the process serves no clustered
// database (the command is registered by the first Raft database it opens), and "unknown
// cluster" when it serves one, but not this one.
const char kNoCommand[] =
    "\"cluster/status\" is not a valid command (use \"list-commands\" to see a list of valid "
    "commands)";

// A _Server row as update_database_status writes it for a database without Raft: no cid, sid
// or index; `connected` true for a standalone one, the relay's link to its source for a relay.
ServerDatabase Row(const std::string& model, bool connected = true) {
  ServerDatabase row;
  row.name = "OVN_Northbound";
  row.model = model;
  row.connected = connected;
  row.leader = model == "standalone";
  return row;
}

DatabaseReading Reading(std::optional<ServerDatabase> row, std::optional<Error> status_error) {
  DatabaseReading r;
  r.target = {"OVN_Northbound", "/x.ctl", "/x.sock", ""};
  r.server = std::move(row);
  r.status_error = std::move(status_error);
  return r;
}

TEST(ModelReadingTest, AStandaloneDatabaseIsUpWithoutRaftStatusAndWithoutError) {
  for (const char* reply : {kNoCommand, "unknown cluster"}) {
    auto r = Reading(Row("standalone"), Error{ErrorCode::kRpcError, reply});
    TakeModel(r);
    EXPECT_EQ(r.model, DatabaseModel::kStandalone);
    EXPECT_FALSE(r.status_error) << reply;
    EXPECT_FALSE(r.primary_error());
    EXPECT_FALSE(r.status);
    EXPECT_TRUE(r.up());
  }
}

TEST(ModelReadingTest, ARelayIsUpWhetherOrNotConnectedToItsSource) {
  for (const bool connected : {true, false}) {
    auto r = Reading(Row("relay", connected), Error{ErrorCode::kRpcError, kNoCommand});
    TakeModel(r);
    EXPECT_EQ(r.model, DatabaseModel::kRelay);
    EXPECT_FALSE(r.primary_error());
    EXPECT_TRUE(r.up()) << "connected " << connected;
  }
}

// Only an error the server replied with is the model's doing: a server that did not answer
// cluster/status in time, or closed the connection, fails the read whatever the database is.
TEST(ModelReadingTest, AFailureToReachTheServerStaysAFailure) {
  for (const ErrorCode code : {ErrorCode::kTimeout, ErrorCode::kConnectionClosed,
                               ErrorCode::kSocketMissing, ErrorCode::kInvalidJson}) {
    auto r = Reading(Row("standalone"), Error{code, "x"});
    TakeModel(r);
    EXPECT_EQ(r.model, DatabaseModel::kStandalone);
    ASSERT_TRUE(r.status_error);
    EXPECT_EQ(r.status_error->code, code);
    EXPECT_FALSE(r.up()) << ErrorCodeName(code);
  }
}

// Without the _Server row (no database socket given, or its select failed), nothing tells a
// standalone database from a wrong name: the server's error stands.
TEST(ModelReadingTest, WithoutTheRowTheErrorStands) {
  auto r = Reading(std::nullopt, Error{ErrorCode::kRpcError, "unknown cluster"});
  r.server_error = Error{ErrorCode::kConnectFailed, "refused"};
  TakeModel(r);
  EXPECT_EQ(r.model, std::nullopt);
  ASSERT_TRUE(r.primary_error());
  EXPECT_EQ(r.primary_error()->code, ErrorCode::kRpcError);
  EXPECT_FALSE(r.up());
}

// A member's row names it clustered; read without a row, its answer to cluster/status says so.
TEST(ModelReadingTest, AMemberIsClusteredWithOrWithoutItsRow) {
  auto with_row = Reading(Row("clustered"), std::nullopt);
  with_row.status = ParseClusterStatus(testing::Fixture("ovs-3.1.0/follower.txt"));
  TakeModel(with_row);
  EXPECT_EQ(with_row.model, DatabaseModel::kClustered);
  EXPECT_TRUE(with_row.up());

  auto without = Reading(std::nullopt, std::nullopt);
  without.status = ParseClusterStatus(testing::Fixture("ovs-3.1.0/leader.txt"));
  TakeModel(without);
  EXPECT_EQ(without.model, DatabaseModel::kClustered);
  EXPECT_TRUE(without.up());
}

// A clustered database whose status cannot be read is down: its row does not make it up.
TEST(ModelReadingTest, AClusteredDatabaseWithoutStatusIsDown) {
  auto r = Reading(Row("clustered"), Error{ErrorCode::kRpcError, "unknown cluster"});
  TakeModel(r);
  EXPECT_EQ(r.model, DatabaseModel::kClustered);
  ASSERT_TRUE(r.status_error);
  EXPECT_EQ(r.status_error->code, ErrorCode::kRpcError);
  EXPECT_FALSE(r.up());
}

// A model this exporter does not know, with no Raft status: not read, as not clustered, and
// the message does not repeat the server's text.
TEST(ModelReadingTest, AnUnknownModelWithoutStatusIsNotClustered) {
  auto r = Reading(Row("replica" + std::string(1000, 'x')), Error{ErrorCode::kRpcError, "no"});
  TakeModel(r);
  EXPECT_EQ(r.model, std::nullopt);
  ASSERT_TRUE(r.status_error);
  EXPECT_EQ(r.status_error->code, ErrorCode::kNotClustered);
  EXPECT_EQ(r.status_error->message.find("replica"), std::string::npos);
  EXPECT_LT(r.status_error->message.size(), 200u);
  EXPECT_FALSE(r.up());
}

TEST(ModelReadingTest, TheFindingSaysWhatIsServed) {
  EXPECT_EQ(ModelFinding("OVN_Northbound", DatabaseModel::kStandalone),
            "OVN_Northbound is a standalone database: serving its server's facts, no Raft status");
  EXPECT_EQ(ModelFinding("OVN_Southbound", DatabaseModel::kRelay),
            "OVN_Southbound is a relay database: serving its server's facts and whether it is "
            "connected to its relay source, no Raft status");
  EXPECT_NE(ModelFinding("OVN_Northbound", DatabaseModel::kClustered).find("Raft status"),
            std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
