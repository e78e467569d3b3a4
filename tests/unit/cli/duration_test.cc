#include "cli/duration.h"

#include <gtest/gtest.h>

#include <chrono>

namespace ovn_raft {
namespace {

TEST(DurationTest, Units) {
  EXPECT_EQ(ParseDuration("2s"), std::chrono::milliseconds(2000));
  EXPECT_EQ(ParseDuration("500ms"), std::chrono::milliseconds(500));
  EXPECT_EQ(ParseDuration("1m30s"), std::chrono::milliseconds(90000));
  EXPECT_EQ(ParseDuration("1h"), std::chrono::milliseconds(3600000));
  EXPECT_EQ(ParseDuration("0"), std::chrono::milliseconds(0));
  EXPECT_FALSE(ParseDuration("").has_value());
  EXPECT_FALSE(ParseDuration("2").has_value());
  EXPECT_FALSE(ParseDuration("s").has_value());
  EXPECT_FALSE(ParseDuration("-1s").has_value());
  EXPECT_FALSE(ParseDuration("1.5s").has_value());
  EXPECT_FALSE(ParseDuration("3d").has_value());
}

TEST(DurationTest, FormatsInTheLargestExactUnitAndReadsBack) {
  using std::chrono::milliseconds;
  for (const auto& [ms, text] : std::vector<std::pair<long, std::string>>{{0, "0"},
                                                                          {2000, "2s"},
                                                                          {500, "500ms"},
                                                                          {1500, "1500ms"},
                                                                          {90000, "90s"},
                                                                          {600000, "10m"},
                                                                          {7200000, "2h"}}) {
    EXPECT_EQ(FormatDuration(milliseconds(ms)), text);
    EXPECT_EQ(ParseDuration(text), milliseconds(ms)) << text;
  }
}

}  // namespace
}  // namespace ovn_raft
