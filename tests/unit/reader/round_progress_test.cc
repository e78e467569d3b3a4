#include "reader/round_progress.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

using namespace std::chrono_literals;

DatabaseReading Up(const std::string& name) {
  DatabaseReading r;
  r.target.name = name;
  r.status = ClusterStatus{};
  return r;
}

TEST(RoundProgressTest, NothingIsKnownBeforeTheRoundBegins) {
  RoundProgress p;
  EXPECT_EQ(p.Partial(100ms), nullptr);
}

// Databases still being read are served as not read in time, in the round's order.
TEST(RoundProgressTest, PartialServesWhatWasReadAndMarksTheRest) {
  RoundProgress p;
  const auto taken_at = std::chrono::system_clock::now();
  p.Begin(taken_at, {{"A", "/a.ctl", "", ""}, {"B", "/b.ctl", "", ""}, {"C", "/c.ctl", "", ""}});
  p.Finish(1, Up("B"));
  const auto partial = p.Partial(800ms);
  ASSERT_NE(partial, nullptr);
  EXPECT_EQ(partial->taken_at, taken_at);
  ASSERT_EQ(partial->databases.size(), 3u);
  EXPECT_EQ(partial->databases[0].target.name, "A");
  EXPECT_EQ(partial->databases[0].target.ctl_path, "/a.ctl");
  EXPECT_FALSE(partial->databases[0].up());
  EXPECT_EQ(partial->databases[0].primary_error()->code, ErrorCode::kScrapeTimeout);
  EXPECT_NE(partial->databases[0].primary_error()->message.find("800 ms"), std::string::npos);
  EXPECT_DOUBLE_EQ(partial->databases[0].duration_seconds, 0.8);
  // Its server has not answered in that time: at least that late (a stalled main loop).
  ASSERT_TRUE(partial->databases[0].response_seconds);
  EXPECT_DOUBLE_EQ(*partial->databases[0].response_seconds, 0.8);
  EXPECT_TRUE(partial->databases[1].up());
  EXPECT_FALSE(partial->databases[2].up());
  // The round goes on: what a scrape took is its own copy.
  p.Finish(0, Up("A"));
  p.Finish(2, Up("C"));
  EXPECT_FALSE(partial->databases[0].up());
  const auto whole = p.End();
  for (const auto& db : whole->databases) EXPECT_TRUE(db.up()) << db.target.name;
  EXPECT_EQ(p.Partial(1ms), whole);  // once ended, the round itself
}

}  // namespace
}  // namespace ovn_raft
