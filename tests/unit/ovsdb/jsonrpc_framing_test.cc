#include "ovsdb/jsonrpc_framing.h"

#include <gtest/gtest.h>

#include <string>

namespace ovn_raft {
namespace {

using State = JsonFramer::State;

TEST(JsonFramerTest, FindsEndOfOneObject) {
  JsonFramer f;
  const std::string s = R"({"id":0,"result":"a}b{c","error":null}{"next":1})";
  ASSERT_EQ(f.Scan(s), State::kComplete);
  EXPECT_EQ(s.substr(0, f.message_end()), R"({"id":0,"result":"a}b{c","error":null})");
}

TEST(JsonFramerTest, EscapedQuotesAndBackslashes) {
  JsonFramer f;
  const std::string s = R"({"r":"x\"}\\"} tail)";
  ASSERT_EQ(f.Scan(s), State::kComplete);
  EXPECT_EQ(s.substr(0, f.message_end()), R"({"r":"x\"}\\"})");
}

TEST(JsonFramerTest, ResumesAcrossOneBytePieces) {
  const std::string s = R"(  {"a":[1,{"b":"]}"}],"c":"\\\""})";
  JsonFramer f;
  std::string buffer;
  for (std::size_t i = 0; i + 1 < s.size(); ++i) {
    buffer += s[i];
    ASSERT_EQ(f.Scan(buffer), State::kIncomplete) << i;
  }
  buffer += s.back();
  ASSERT_EQ(f.Scan(buffer), State::kComplete);
  EXPECT_EQ(f.message_end(), s.size());
}

TEST(JsonFramerTest, GarbageIsInvalid) {
  JsonFramer f;
  EXPECT_EQ(f.Scan("HTTP/1.1 400 Bad Request"), State::kInvalid);
  JsonFramer g;
  EXPECT_EQ(g.Scan("\n\t [1,2]"), State::kInvalid);
}

TEST(JsonFramerTest, EmptyOrWhitespaceIsIncomplete) {
  JsonFramer f;
  EXPECT_EQ(f.Scan(""), State::kIncomplete);
  EXPECT_EQ(f.Scan("   \n"), State::kIncomplete);
}

}  // namespace
}  // namespace ovn_raft
