#include "cli/log.h"

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
