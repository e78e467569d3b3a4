#include "reader/log_compaction_clock.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

using namespace std::chrono_literals;
const LogCompactionClock::TimePoint kStart{std::chrono::seconds(1'800'000'000)};

TEST(LogCompactionClock, EntriesWaitFromWhenTheyWereFirstSeen) {
  LogCompactionClock clock;
  EXPECT_EQ(clock.Observe(kStart, 100, 120), kStart);
  EXPECT_EQ(clock.Observe(kStart + 1h, 100, 150), kStart);
  EXPECT_EQ(clock.Observe(kStart + 26h, 100, 151), kStart);
}

TEST(LogCompactionClock, ACompactionStartsItAgain) {
  LogCompactionClock clock;
  clock.Observe(kStart, 100, 120);
  EXPECT_EQ(clock.Observe(kStart + 12h, 150, 160), kStart + 12h);
  EXPECT_EQ(clock.Observe(kStart + 13h, 150, 170), kStart + 12h);
}

// An idle log (first == next) has nothing to compact: it is never overdue, however long ago its
// last snapshot was, and its first entry starts the clock.
TEST(LogCompactionClock, AnEmptyLogWaitsForNothing) {
  LogCompactionClock clock;
  EXPECT_EQ(clock.Observe(kStart, 500, 500), kStart);
  EXPECT_EQ(clock.Observe(kStart + 30h, 500, 500), kStart + 30h);
  EXPECT_EQ(clock.Observe(kStart + 31h, 500, 501), kStart + 30h);
  EXPECT_EQ(clock.Observe(kStart + 40h, 500, 502), kStart + 30h);
}

// Without `next` (a status that printed no log line end) the log is taken to hold entries.
TEST(LogCompactionClock, AnUnknownEndCountsAsEntries) {
  LogCompactionClock clock;
  EXPECT_EQ(clock.Observe(kStart, 500, std::nullopt), kStart);
  EXPECT_EQ(clock.Observe(kStart + 2h, 500, std::nullopt), kStart);
}

TEST(LogCompactionClock, ANewConnectionKnowsNothingBefore) {
  LogCompactionClock clock;
  clock.Observe(kStart, 100, 120);
  clock.Reset();
  EXPECT_EQ(clock.Observe(kStart + 5h, 100, 130), kStart + 5h);
  EXPECT_EQ(clock.Observe(kStart + 6h, 100, 140), kStart + 5h);
}

}  // namespace
}  // namespace ovn_raft
