#include "parsers/memory_usage.h"

#include <gtest/gtest.h>

#include "support/fixtures.h"

namespace ovn_raft {
namespace {

// Captured live from ovsdb-server 3.1.0 (Debian 12): a fresh NB member, and the leader of a
// database that has taken 280 transactions (then failed on a full disk).
TEST(MemoryUsageTest, RealReplies) {
  const auto fresh = ParseMemoryUsage(
      "atoms:17 cells:20 monitors:0 n-weak-refs:0 raft-connections:4 raft-log:3 txn-history:1");
  EXPECT_EQ(fresh[MemoryKey::kAtoms], 17u);
  EXPECT_EQ(fresh[MemoryKey::kCells], 20u);
  EXPECT_EQ(fresh[MemoryKey::kMonitors], 0u);
  EXPECT_EQ(fresh[MemoryKey::kWeakRefs], 0u);
  EXPECT_EQ(fresh[MemoryKey::kRaftConnections], 4u);
  EXPECT_EQ(fresh[MemoryKey::kRaftLog], 3u);
  EXPECT_EQ(fresh[MemoryKey::kTxnHistory], 1u);
  // Zero counts are not printed at all.
  EXPECT_FALSE(fresh[MemoryKey::kSessions]);
  EXPECT_FALSE(fresh[MemoryKey::kRaftBacklogKb]);
  EXPECT_TRUE(fresh.unknown_keys.empty());
  EXPECT_EQ(fresh.malformed, 0u);

  const auto busy = ParseMemoryUsage(
      "atoms:867 cells:3674 monitors:0 n-weak-refs:0 raft-connections:4 raft-log:284 "
      "txn-history:100 txn-history-atoms:300\n");
  EXPECT_EQ(busy[MemoryKey::kRaftLog], 284u);
  EXPECT_EQ(busy[MemoryKey::kTxnHistoryAtoms], 300u);
  EXPECT_EQ(busy.malformed, 0u);
}

// scripts/capture-fixtures.sh server: a leader two monitoring clients watch, after 50
// transactions, and the same leader failed on a full disk; every release prints the same keys.
TEST(MemoryUsageTest, EveryReleaseCaptured) {
  for (const std::string version : {"ovs-3.1.0", "ovs-3.5.0", "ovs-4.0.0"}) {
    for (const std::string state : {"leader", "failed-leader"}) {
      SCOPED_TRACE(version + " " + state);
      const auto u = ParseMemoryUsage(testing::Fixture(version + "/memory-show/" + state + ".txt"));
      EXPECT_EQ(u.malformed, 0u);
      EXPECT_TRUE(u.unknown_keys.empty());
      EXPECT_EQ(u[MemoryKey::kSessions], 2u);  // the two clients
      EXPECT_EQ(u[MemoryKey::kMonitors], 1u);  // they watch the same thing: one monitor
      EXPECT_EQ(u[MemoryKey::kRaftConnections], 4u);
      EXPECT_GT(u[MemoryKey::kAtoms].value_or(0), 100u);
      EXPECT_GT(u[MemoryKey::kRaftLog].value_or(0), 50u);
    }
  }
}

// Every key ovsdb-server can print, as a member with clients prints them.
TEST(MemoryUsageTest, EveryKnownKey) {
  const auto u = ParseMemoryUsage(
      "atoms:1 backlog:2 cells:3 json-caches:4 monitors:5 n-weak-refs:6 raft-backlog-kB:7 "
      "raft-connections:8 raft-log:9 sessions:10 triggers:11 txn-history:12 "
      "txn-history-atoms:13");
  for (std::size_t i = 0; i < kMemoryKeyCount; ++i) {
    EXPECT_TRUE(u.values[i].has_value()) << MemoryKeyName(static_cast<MemoryKey>(i));
  }
  EXPECT_EQ(u[MemoryKey::kBacklog], 2u);
  EXPECT_EQ(u[MemoryKey::kJsonCaches], 4u);
  EXPECT_EQ(u[MemoryKey::kRaftBacklogKb], 7u);
  EXPECT_EQ(u[MemoryKey::kSessions], 10u);
  EXPECT_EQ(u[MemoryKey::kTriggers], 11u);
  EXPECT_TRUE(u.unknown_keys.empty());
}

// A newer release's keys are kept by name and counted, never fatal; junk is counted apart.
TEST(MemoryUsageTest, UnknownKeysAndJunkAreCounted) {
  const auto u = ParseMemoryUsage("atoms:5 ovsdb-new-thing:7 cells:x :3 raft-log: junk monitors:2");
  EXPECT_EQ(u[MemoryKey::kAtoms], 5u);
  EXPECT_EQ(u[MemoryKey::kMonitors], 2u);
  EXPECT_FALSE(u[MemoryKey::kCells]);
  EXPECT_FALSE(u[MemoryKey::kRaftLog]);
  EXPECT_EQ(u.unknown_keys, std::vector<std::string>{"ovsdb-new-thing"});
  EXPECT_EQ(u.malformed, 4u);  // cells:x, :3, raft-log:, junk
  EXPECT_EQ(ParseMemoryUsage("").malformed, 0u);
  EXPECT_EQ(ParseMemoryUsage("a\"b:1").malformed, 1u);  // not a key a label or log may carry
}

TEST(MemoryUsageTest, UnknownKeysAreBounded) {
  std::string reply;
  for (int i = 0; i < 1000; ++i) reply += "k" + std::to_string(i) + ":1 ";
  const auto u = ParseMemoryUsage(reply);
  EXPECT_EQ(u.unknown_keys.size(), kMaxUnknownMemoryKeys);
  EXPECT_EQ(u.unknown_dropped, 1000u - kMaxUnknownMemoryKeys);
  EXPECT_EQ(ParseMemoryUsage(std::string(100, 'k') + ":1").malformed, 1u);
}

}  // namespace
}  // namespace ovn_raft
