#include "parsers/coverage_counter.h"

#include <gtest/gtest.h>

#include "support/fixtures.h"

namespace ovn_raft {
namespace {

// Captured from real servers: a fresh leader, then the same leader after one transaction large
// enough to keep its main loop busy for seconds.
TEST(CoverageCounterTest, RealReplies) {
  for (const std::string version : {"ovs-3.5.0", "ovs-4.0.0"}) {
    SCOPED_TRACE(version);
    EXPECT_EQ(ParseCoverageCounter(
                  testing::Fixture(version + "/coverage-counter/long-poll-interval.txt")),
              0u);
    const auto after = ParseCoverageCounter(testing::Fixture(
        version + "/coverage-counter/long-poll-interval-after-large-transaction.txt"));
    ASSERT_TRUE(after);
    EXPECT_GE(*after, 1u);
  }
}

TEST(CoverageCounterTest, ANumberAlone) {
  EXPECT_EQ(ParseCoverageCounter("0\n"), 0u);
  EXPECT_EQ(ParseCoverageCounter("12345678901234\n"), 12345678901234u);
  EXPECT_EQ(ParseCoverageCounter("7"), 7u);
}

TEST(CoverageCounterTest, AnythingElseIsRefused) {
  EXPECT_FALSE(ParseCoverageCounter(""));
  EXPECT_FALSE(ParseCoverageCounter("\n"));
  EXPECT_FALSE(ParseCoverageCounter("-1\n"));
  EXPECT_FALSE(ParseCoverageCounter("1 2\n"));
  EXPECT_FALSE(ParseCoverageCounter("99999999999999999999999\n"));
  // What a server without the counter says (OVS before 3.3), were it a result.
  EXPECT_FALSE(
      ParseCoverageCounter(testing::Fixture("ovs-3.1.0/coverage-counter/no-such-counter.txt")));
}

}  // namespace
}  // namespace ovn_raft
