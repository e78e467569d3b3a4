#include "base/utf8.h"

#include <gtest/gtest.h>

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
