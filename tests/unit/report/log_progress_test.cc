// Whose log does not sync, from successive readings of a real leader's cluster/status
// (tests/fixtures/ovs-3.1.0/leader.txt: 6355 leads, 68ff and 63a7 follow), its log's end and
// each member's match index set per reading.
#include "report/log_progress.h"

#include <gtest/gtest.h>

#include "status_fixture.h"

namespace ovn_raft {
namespace {

using testing::Replaced;
using testing::StatusReport;

const std::string kLeader = testing::Fixture("ovs-3.1.0/leader.txt");

// The leader's reading at `t` seconds: its log ends at `last`, its own entry (6355) is written
// up to `self`, the followers' up to `f1` (68ff) and `f2` (63a7); `uncommitted` of its entries
// are not committed.
MemberReport Reading(double t, int last, int self, int f1, int f2, const std::string& term = "1",
                     int uncommitted = 0) {
  std::string text = Replaced(kLeader, "Log: [2, 5]", "Log: [2, " + std::to_string(last + 1) + "]");
  text = Replaced(text, "Term: 1", "Term: " + term);
  text = Replaced(text, "Entries not yet committed: 0",
                  "Entries not yet committed: " + std::to_string(uncommitted));
  text =
      Replaced(text, "next_index=5 match_index=4 last msg 210 ms ago\n    6355",
               "next_index=5 match_index=" + std::to_string(f1) + " last msg 210 ms ago\n    6355");
  text = Replaced(text, "(self) next_index=2 match_index=4",
                  "(self) next_index=2 match_index=" + std::to_string(self));
  text = Replaced(text, "63a7 at tcp:127.0.0.3:26245) next_index=5 match_index=4",
                  "63a7 at tcp:127.0.0.3:26245) next_index=5 match_index=" + std::to_string(f2));
  return StatusReport(text, "http://127.0.0.1:9", 1000 + t);
}

TEST(LogProgressTest, TheFixtureReadsAsEveryMembersProgress) {
  const auto r = Reading(0, 9, 7, 8, 9);
  EXPECT_EQ(r.log_next_index, 10u);
  EXPECT_EQ(r.entries_not_committed, 0u);
  EXPECT_EQ(r.match_index,
            (std::map<std::string, std::uint64_t>{{"6355", 7}, {"68ff", 8}, {"63a7", 9}}));
  EXPECT_TRUE(AnyLag(r));
  EXPECT_FALSE(AnyLag(Reading(0, 9, 9, 9, 9)));
}

TEST(LogProgressTest, AHealthyClusterUnderWritesHasNoFinding) {
  // Everyone moves with the log, a write in flight now and then.
  const std::vector<MemberReport> readings = {
      Reading(0, 100, 100, 99, 100), Reading(1.1, 111, 110, 111, 111),
      Reading(2.2, 122, 122, 121, 120), Reading(3.3, 133, 133, 133, 132)};
  EXPECT_TRUE(LogProgress(readings).empty());
}

TEST(LogProgressTest, ALeaderWhoseOwnDiskCompletesNoWriteIsNotCatchingUp) {
  // Its own entry stays at 100 while the followers write what it appends.
  const std::vector<MemberReport> readings = {Reading(0, 105, 100, 105, 104),
                                              Reading(1.1, 116, 100, 116, 116),
                                              Reading(2.2, 127, 100, 126, 127)};
  const auto f = LogProgress(readings);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, LogFinding::Kind::kNotCatchingUp);
  EXPECT_EQ(f[0].id, "6355");
  EXPECT_TRUE(f[0].leads);
  EXPECT_EQ(f[0].match, 100u);
  EXPECT_EQ(f[0].lag, 27u);
  EXPECT_EQ(f[0].readings, 3u);
  EXPECT_NEAR(f[0].seconds, 2.2, 1e-6);
}

TEST(LogProgressTest, ALeaderWhoseDiskSyncsSlowlyIsSlow) {
  // It moves, but trails what its followers committed by a batch of fsyncs.
  const std::vector<MemberReport> readings = {
      Reading(0, 100, 92, 100, 99), Reading(1.1, 111, 101, 111, 111),
      Reading(2.2, 122, 114, 121, 122), Reading(3.3, 133, 124, 133, 133),
      Reading(4.4, 144, 137, 144, 143)};
  const auto f = LogProgress(readings);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, LogFinding::Kind::kSlow);
  EXPECT_TRUE(f[0].leads);
  EXPECT_EQ(f[0].lag, 8u);  // behind the commit index, at the median reading
}

TEST(LogProgressTest, ALeaderBehindWhatNobodyCommittedYetIsNotSlow) {
  // Its own entry trails the log's end, but so does the majority: nothing is committed beyond
  // it (a burst of writes in flight everywhere), and it keeps moving.
  const std::vector<MemberReport> readings = {Reading(0, 100, 97, 97, 96, "1", 3),
                                              Reading(1.1, 111, 108, 108, 107, "1", 3),
                                              Reading(2.2, 122, 119, 119, 118, "1", 3)};
  EXPECT_TRUE(LogProgress(readings).empty());
}

TEST(LogProgressTest, AFollowerStuckBehindIsNotCatchingUpAndNoLeader) {
  const std::vector<MemberReport> readings = {
      Reading(0, 50, 50, 40, 50), Reading(1.1, 50, 50, 40, 50), Reading(2.2, 50, 50, 40, 50)};
  const auto f = LogProgress(readings);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, LogFinding::Kind::kNotCatchingUp);
  EXPECT_EQ(f[0].id, "68ff");
  EXPECT_FALSE(f[0].leads);
  EXPECT_EQ(f[0].lag, 10u);
}

TEST(LogProgressTest, TooFewDistinctReadingsOrAnotherTermSayNothing) {
  // Two readings only; a third that repeats the second (the exporter's reused reading); a
  // third from a new term (another leadership): no verdict on progress.
  const auto a = Reading(0, 105, 100, 105, 104);
  const auto b = Reading(1.1, 116, 100, 116, 116);
  EXPECT_TRUE(LogProgress({a, b}).empty());
  EXPECT_TRUE(LogProgress({a, b, b}).empty());
  EXPECT_TRUE(LogProgress({a, b, Reading(2.2, 127, 100, 126, 127, "2")}).empty());
  auto follower = Reading(2.2, 127, 100, 126, 127);
  follower.role = "follower";
  EXPECT_TRUE(LogProgress({a, b, follower}).empty());
}

}  // namespace
}  // namespace ovn_raft
