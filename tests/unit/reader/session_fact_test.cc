#include "reader/session_fact.h"

#include <gtest/gtest.h>

#include <string>

namespace ovn_raft {
namespace {

using namespace std::chrono_literals;
using Time = SessionFact<std::string>::Time;

TEST(SessionFactTest, AnAnswerHoldsForItsSessionOnly) {
  SessionFact<std::string> version;
  const Time t0{};
  EXPECT_TRUE(version.Due(1, t0, std::nullopt));  // never asked
  version.Answer(1, t0, "3.5.0");
  EXPECT_FALSE(version.Due(1, t0 + 24h, std::nullopt));  // the whole session
  EXPECT_EQ(version.Held(1), "3.5.0");
  EXPECT_TRUE(version.Due(2, t0, std::nullopt));  // the server restarted
  EXPECT_FALSE(version.Held(2).has_value());
  EXPECT_TRUE(version.Due(std::nullopt, t0, std::nullopt));  // it went away
  EXPECT_FALSE(version.Held(std::nullopt).has_value());
}

TEST(SessionFactTest, AnAnswerIsAskedAgainPastItsInterval) {
  SessionFact<int> cells;
  const Time t0{};
  cells.Answer(1, t0, 7);
  EXPECT_FALSE(cells.Due(1, t0 + 9s, 10s));
  EXPECT_TRUE(cells.Due(1, t0 + 10s, 10s));
  EXPECT_TRUE(cells.Due(1, t0, 0s));  // 0: every round
  EXPECT_EQ(cells.Held(1), 7);        // still lent until the new answer
}

// An answer that says nothing understood is an answer: not asked again in its session.
TEST(SessionFactTest, AnAnswerNotUnderstoodIsNotAskedAgainInItsSession) {
  SessionFact<std::string> version;
  version.Answer(1, Time{}, std::nullopt);
  EXPECT_FALSE(version.Due(1, Time{} + 24h, std::nullopt));
  EXPECT_FALSE(version.Held(1).has_value());
}

// Left unanswered by a server that answers the rest: spared until the retry, then asked again;
// a restart asks at once.
TEST(SessionFactTest, AnUnansweredCallIsSparedUntilItsRetry) {
  SessionFact<int> memory;
  const Time t0{};
  memory.Answer(1, t0, 7);
  memory.Unanswered(1, t0 + 5min);
  EXPECT_FALSE(memory.Held(1).has_value());
  EXPECT_FALSE(memory.Due(1, t0 + 1s, 0s));
  EXPECT_FALSE(memory.Due(1, t0 + 4min, 0s));
  EXPECT_TRUE(memory.Due(1, t0 + 5min, 0s));
  EXPECT_TRUE(memory.Due(2, t0 + 1s, 0s));
  memory.Forget();
  EXPECT_TRUE(memory.Due(1, t0 + 1s, 0s));
}

}  // namespace
}  // namespace ovn_raft
