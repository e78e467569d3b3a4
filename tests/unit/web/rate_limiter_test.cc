#include "web/rate_limiter.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace ovn_raft {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using std::chrono::seconds;

TEST(ParseGoDurationTest, AsGoReadsThem) {
  EXPECT_EQ(ParseGoDuration("0"), nanoseconds(0));
  EXPECT_EQ(ParseGoDuration("0s"), nanoseconds(0));
  EXPECT_EQ(ParseGoDuration("1s"), seconds(1));
  EXPECT_EQ(ParseGoDuration("250ms"), milliseconds(250));
  EXPECT_EQ(ParseGoDuration("1.5s"), milliseconds(1500));
  EXPECT_EQ(ParseGoDuration("1m30s"), seconds(90));
  EXPECT_EQ(ParseGoDuration("2h45m"), std::chrono::minutes(165));
  EXPECT_EQ(ParseGoDuration("10us"), nanoseconds(10000));
  EXPECT_EQ(ParseGoDuration("10\xc2\xb5s"), nanoseconds(10000));
  EXPECT_EQ(ParseGoDuration("7ns"), nanoseconds(7));
  const std::string huge = std::string(400, '9') + "s";  // stod would throw
  for (const std::string& bad : std::vector<std::string>{
           "", "1", "-1s", "+1s", "s", ".s", "1.2.3s", "1x", "1e3s", "1s2", "9999999999h", huge}) {
    EXPECT_FALSE(ParseGoDuration(bad)) << bad;
  }
}

// x/time/rate's bucket: full at start, `burst` at most, a token per interval; a refusal takes
// nothing.
TEST(RateLimiterTest, ATokenBucket) {
  const auto t0 = RateLimiter::Clock::now();
  RateLimiter limiter({seconds(1), 3});
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.Allow(t0)) << i;
  EXPECT_FALSE(limiter.Allow(t0));
  EXPECT_FALSE(limiter.Allow(t0 + milliseconds(999)));
  EXPECT_TRUE(limiter.Allow(t0 + seconds(1)));
  EXPECT_FALSE(limiter.Allow(t0 + milliseconds(1500)));
  // Idle for long: no more than the burst saved up.
  const auto later = t0 + seconds(100);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.Allow(later)) << i;
  EXPECT_FALSE(limiter.Allow(later));
  EXPECT_EQ(limiter.RetryAfterSeconds(), 1);
}

TEST(RateLimiterTest, NoLimitUntilSetAndANewBucketOnlyWhenTheLimitChanges) {
  const auto t0 = RateLimiter::Clock::now();
  RateLimiter limiter;
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(limiter.Allow(t0));
  limiter.Set({milliseconds(2500), 1});
  EXPECT_TRUE(limiter.Allow(t0));
  EXPECT_FALSE(limiter.Allow(t0));
  EXPECT_EQ(limiter.RetryAfterSeconds(), 3);
  limiter.Set({milliseconds(2500), 1});  // the same limit: the same, empty bucket
  EXPECT_FALSE(limiter.Allow(t0));
  limiter.Set({milliseconds(2500), 2});  // another: a full one
  EXPECT_TRUE(limiter.Allow(t0));
  EXPECT_TRUE(limiter.Allow(t0));
  EXPECT_FALSE(limiter.Allow(t0));
  limiter.Set({});
  EXPECT_TRUE(limiter.Allow(t0));
}

}  // namespace
}  // namespace ovn_raft
