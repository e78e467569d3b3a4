#include "parsers/utf8.h"

#include <gtest/gtest.h>

#include "parsers/cluster_status_parser.h"
#include "support/fixtures.h"

namespace ovn_raft {
namespace {

TEST(Utf8Test, KeepsValidTextAndReplacesEveryInvalidSequence) {
  EXPECT_EQ(ValidUtf8("tcp:10.0.0.1:6643"), "tcp:10.0.0.1:6643");
  EXPECT_EQ(ValidUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"),
            "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(ValidUtf8("a\xFF"
                      "b"),
            "a" + fffd + "b");                                          // never valid
  EXPECT_EQ(ValidUtf8("\xC0\xAF"), fffd + fffd);                        // overlong '/'
  EXPECT_EQ(ValidUtf8("\xED\xA0\x80"), fffd + fffd + fffd);             // a surrogate
  EXPECT_EQ(ValidUtf8("\xF4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // above U+10FFFF
  EXPECT_EQ(ValidUtf8("end\xE2\x82"), "end" + fffd + fffd);             // cut short
}

TEST(Utf8Test, ANonUtf8ByteInTheStatusBecomesAValidName) {
  std::string text = testing::Fixture("ovs-3.1.0/leader.txt");
  const auto at = text.find("Name: ") + 6;
  text.insert(at, "\xFF");
  const auto status = ParseClusterStatus(ValidUtf8(text));
  ASSERT_TRUE(status.name.has_value());
  EXPECT_EQ(status.name->rfind("\xEF\xBF\xBD", 0), 0u);
}

TEST(Utf8Test, ImpossibleElectionAgesAreWarningsNotTimestamps) {
  std::string text = testing::Fixture("ovs-3.1.0/leader.txt");
  const auto line = text.find("Last Election won: ");
  ASSERT_NE(line, std::string::npos);
  text.replace(line, text.find('\n', line) - line,
               "Last Election won: 18446744073709551615 ms ago");
  const auto status = ParseClusterStatus(text);
  EXPECT_FALSE(status.last_election_won_ms_ago.has_value());
  ASSERT_EQ(status.warnings.size(), 1u);
  EXPECT_NE(status.warnings[0].text.find("18446744073709551615"), std::string::npos);
}

TEST(Utf8Test, APrefixNeverEndsInsideACharacter) {
  const std::string text = "ab\xE2\x82\xAC\xF0\x9F\x98\x80";
  EXPECT_EQ(Utf8Prefix(text, 2), "ab");
  EXPECT_EQ(Utf8Prefix(text, 3), "ab");
  EXPECT_EQ(Utf8Prefix(text, 4), "ab");
  EXPECT_EQ(Utf8Prefix(text, 5), "ab\xE2\x82\xAC");
  EXPECT_EQ(Utf8Prefix(text, 8), "ab\xE2\x82\xAC");
  EXPECT_EQ(Utf8Prefix(text, 9), text);
  EXPECT_EQ(BoundedUtf8(text, 4), "ab... (9 bytes)");
  EXPECT_EQ(BoundedUtf8("\xFF", 4), "\xEF\xBF\xBD");
}

}  // namespace
}  // namespace ovn_raft
