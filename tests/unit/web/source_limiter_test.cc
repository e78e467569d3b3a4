#include "web/source_limiter.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "web/source_key.h"

namespace ovn_raft {
namespace {

TEST(SourceLimiterTest, ASourcePastItsShareIsRefusedAndOthersAreNot) {
  EXPECT_EQ(SourceLimiter::ShareOf(256), 64);
  EXPECT_EQ(SourceLimiter::ShareOf(8), 4);
  SourceLimiter limiter(2);
  std::vector<std::unique_ptr<SourceLimiter::Slot>> held;
  for (int i = 0; i < 2; ++i) {
    held.push_back(std::make_unique<SourceLimiter::Slot>(limiter, "10.0.0.1"));
    EXPECT_TRUE(held.back()->admitted());
  }
  EXPECT_FALSE(SourceLimiter::Slot(limiter, "10.0.0.1").admitted());
  EXPECT_TRUE(SourceLimiter::Slot(limiter, "10.0.0.2").admitted());
  // One IPv6 /64 is one source.
  const SourceLimiter::Slot a(limiter, "2001:db8::1"), b(limiter, "2001:db8::2");
  EXPECT_FALSE(SourceLimiter::Slot(limiter, "2001:db8::3").admitted());
  EXPECT_TRUE(SourceLimiter::Slot(limiter, "2001:db8:0:1::3").admitted());
  // A refused request does not count; a finished one frees its place.
  held.pop_back();
  EXPECT_TRUE(SourceLimiter::Slot(limiter, "10.0.0.1").admitted());
}

TEST(SourceKeyTest, IPv4AsItIsIPv6ByItsSlash64) {
  EXPECT_EQ(SourceKey("10.0.0.3"), "10.0.0.3");
  EXPECT_EQ(SourceKey("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
  EXPECT_EQ(SourceKey("2001:db8:1:2::9"), SourceKey("2001:db8:1:2:ffff::1"));
  EXPECT_EQ(SourceKey("::ffff:10.0.0.3"), "10.0.0.3");  // an IPv4 client of [::]:PORT
  EXPECT_EQ(SourceKey("garbage:"), "garbage:");
}

}  // namespace
}  // namespace ovn_raft
