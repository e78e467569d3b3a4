#include "base/log.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

TEST(LogTest, LogfmtQuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(FormatLogLine(LogFormat::kLogfmt, "2026-01-01T00:00:00.000Z", LogLevel::kWarn,
                          "read failed", {{"db", "OVN_Northbound"}, {"error", "said \"no\"\n"}}),
            "ts=2026-01-01T00:00:00.000Z level=warn msg=\"read failed\" db=OVN_Northbound "
            "error=\"said \\\"no\\\"\\n\"");
}

TEST(LogTest, JsonEscapesControlCharacters) {
  EXPECT_EQ(FormatLogLine(LogFormat::kJson, "t", LogLevel::kInfo, "listening",
                          {{"address", ":10476"}, {"x", std::string("a\"\\\x01")}}),
            R"({"ts":"t","level":"info","msg":"listening","address":":10476","x":"a\"\\\u0001"})");
}

}  // namespace
}  // namespace ovn_raft

namespace ovn_raft {
namespace {

// NUL, CR and ESC from an ovsdb error must not go into the log raw (a NUL cuts the line and
// glues the next one on), nor a huge error become one huge line.
TEST(LogTest, ControlBytesEscapedAndLongValuesBounded) {
  const std::string hostile = std::string("a\0b\rc\x1b[2Jd\te", 12);
  const std::string logfmt =
      FormatLogLine(LogFormat::kLogfmt, "T", LogLevel::kWarn, "m", {{"error", hostile}});
  EXPECT_NE(logfmt.find(R"(error="a\u0000b\rc\u001b[2Jd\te")"), std::string::npos) << logfmt;
  for (char c : logfmt) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 && c != '\n') << logfmt;
  const std::string json =
      FormatLogLine(LogFormat::kJson, "T", LogLevel::kWarn, "m", {{"error", hostile}});
  EXPECT_NE(json.find(R"("error":"a\u0000b\u000dc\u001b[2Jd\u0009e")"), std::string::npos) << json;
  const std::string huge(7'000'000, 'x');
  const std::string bounded =
      FormatLogLine(LogFormat::kLogfmt, "T", LogLevel::kWarn, "m", {{"error", huge}});
  EXPECT_LT(bounded.size(), 1200u);
  EXPECT_NE(bounded.find("... (7000000 bytes)"), std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
