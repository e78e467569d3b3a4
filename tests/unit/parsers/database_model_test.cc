#include "parsers/database_model.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

// The names _Server's Database table uses (ovsdb-server.c, update_database_status), both ways.
TEST(DatabaseModelTest, EveryModelReadsBackFromItsName) {
  for (const DatabaseModel m : kAllDatabaseModels) {
    EXPECT_EQ(ParseDatabaseModel(DatabaseModelName(m)), m) << DatabaseModelName(m);
  }
  EXPECT_STREQ(DatabaseModelName(DatabaseModel::kClustered), "clustered");
  EXPECT_STREQ(DatabaseModelName(DatabaseModel::kStandalone), "standalone");
  EXPECT_STREQ(DatabaseModelName(DatabaseModel::kRelay), "relay");
}

// A model a newer server may name, or a hostile one, is not taken for a known one.
TEST(DatabaseModelTest, AnUnknownModelIsNone) {
  EXPECT_EQ(ParseDatabaseModel(""), std::nullopt);
  EXPECT_EQ(ParseDatabaseModel("Clustered"), std::nullopt);
  EXPECT_EQ(ParseDatabaseModel("standalone "), std::nullopt);
  EXPECT_EQ(ParseDatabaseModel(std::string_view("relay\0x", 7)), std::nullopt);
  EXPECT_EQ(ParseDatabaseModel("replica"), std::nullopt);
}

}  // namespace
}  // namespace ovn_raft
