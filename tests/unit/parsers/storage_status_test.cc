#include "parsers/storage_status.h"

#include <gtest/gtest.h>

#include "base/utf8.h"
#include "support/fixtures.h"

namespace ovn_raft {
namespace {

TEST(StorageStatusTest, Ok) {
  // Captured live from 3.1.0, also on a member in failure mode after a full disk.
  const auto s = ParseStorageStatus("status: ok");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->ok);
  EXPECT_EQ(s->error, "");
  EXPECT_TRUE(ParseStorageStatus("status: ok\n")->ok);
  for (const std::string version : {"ovs-3.1.0", "ovs-3.5.0", "ovs-4.0.0"}) {
    EXPECT_TRUE(ParseStorageStatus(testing::Fixture(version + "/storage-status/ok.txt"))->ok);
  }
}

// The error ovsdb_storage_unread() records when a Raft entry cannot be applied.
TEST(StorageStatusTest, AnErrorIsKeptAsPrinted) {
  const auto s = ParseStorageStatus("status: inconsistent data\n");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->ok);
  EXPECT_EQ(s->error, "inconsistent data");
  EXPECT_EQ(ParseStorageStatus("status: " + std::string(5000, 'e'))->error.size(), 512u);
  // Cut between characters, and made valid: it is shown on /status as a JSON string.
  std::string euros = "e";
  for (int i = 0; i < 1000; ++i) euros += "\xE2\x82\xAC";
  const std::string cut = ParseStorageStatus("status: \xFF" + euros)->error;
  EXPECT_EQ(cut, ValidUtf8(cut));
  EXPECT_LE(cut.size(), 514u);
  EXPECT_EQ(cut.substr(0, 3), "\xEF\xBF\xBD");
}

TEST(StorageStatusTest, AnythingElseIsRefused) {
  EXPECT_FALSE(ParseStorageStatus(""));
  EXPECT_FALSE(ParseStorageStatus("status:"));
  EXPECT_FALSE(ParseStorageStatus("Failed to find the database."));
  EXPECT_FALSE(ParseStorageStatus("\nstatus: ok"));
}

}  // namespace
}  // namespace ovn_raft

namespace ovn_raft {
namespace {

// Invalid bytes become replacement characters (three bytes each): the bound still holds.
TEST(StorageStatusTest, AnErrorOfInvalidBytesStaysWithinItsBound) {
  const auto s = ParseStorageStatus("status: " + std::string(600, '\xff'));
  ASSERT_TRUE(s.has_value());
  EXPECT_LE(s->error.size(), 512u);
  EXPECT_FALSE(s->error.empty());
}

}  // namespace
}  // namespace ovn_raft
