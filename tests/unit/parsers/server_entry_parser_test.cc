#include "parsers/server_entry_parser.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

// The entry of a line that is one, without a warning.
ServerEntry Entry(std::string_view line) {
  const auto parsed = ParseServerEntry(line);
  EXPECT_TRUE(parsed) << line;
  if (!parsed) return {};
  EXPECT_EQ(parsed.value().warning, std::nullopt) << line;
  return parsed.value().entry;
}

TEST(ServerEntryParserTest, LeaderViewOfFollower) {
  const ServerEntry e = Entry(
      "    58cd (58cd at tcp:127.0.0.2:38683) next_index=5 match_index=4 last msg 323 ms ago");
  EXPECT_EQ(e.nickname, "58cd");
  EXPECT_EQ(e.server_id, "58cd");
  EXPECT_EQ(e.address.host, "127.0.0.2");
  EXPECT_FALSE(e.self);
  EXPECT_EQ(e.phase, ServerPhase::kStable);
  EXPECT_EQ(e.next_index, 5u);
  EXPECT_EQ(e.match_index, 4u);
  EXPECT_EQ(e.last_msg_ms_ago, 323u);
}

TEST(ServerEntryParserTest, SelfCandidateVote) {
  const ServerEntry e = Entry("    6355 (6355 at tcp:127.0.0.1:26245) (self) (voted for 6355)");
  EXPECT_TRUE(e.self);
  EXPECT_EQ(e.voted_for, "6355");
  EXPECT_FALSE(e.next_index.has_value());
  EXPECT_FALSE(e.last_msg_ms_ago.has_value());
}

TEST(ServerEntryParserTest, EveryPhase) {
  const std::pair<const char*, ServerPhase> cases[] = {
      {"(adding: catchup)", ServerPhase::kCatchup},
      {"(adding: caught up)", ServerPhase::kCaughtUp},
      {"(adding: committing)", ServerPhase::kCommitting},
      {"(removing)", ServerPhase::kRemoving},
  };
  for (const auto& [flag, phase] : cases) {
    const ServerEntry e = Entry(std::string("a (a at tcp:[::1]:1) ") + flag);
    EXPECT_EQ(e.phase, phase) << flag;
    EXPECT_EQ(e.address.host, "::1");
  }
}

TEST(ServerEntryParserTest, UnknownTailKeepsEntryWithAWarning) {
  const auto shiny = ParseServerEntry("a1b2 (a1b2 at tcp:1.1.1.1:6641) (self) shiny=1");
  ASSERT_TRUE(shiny);
  EXPECT_TRUE(shiny.value().entry.self);
  ASSERT_TRUE(shiny.value().warning);
  EXPECT_NE(shiny.value().warning->find("shiny"), std::string::npos);

  const auto sleepy = ParseServerEntry("a1b2 (a1b2 at tcp:1.1.1.1:6641) (sleepy)");
  ASSERT_TRUE(sleepy);
  ASSERT_TRUE(sleepy.value().warning);
  EXPECT_NE(sleepy.value().warning->find("sleepy"), std::string::npos);

  const auto partial = ParseServerEntry("a1b2 (a1b2 at tcp:1.1.1.1:6641) last msg x ms ago");
  ASSERT_TRUE(partial);
  EXPECT_FALSE(partial.value().entry.last_msg_ms_ago.has_value());
  EXPECT_TRUE(partial.value().warning);
}

TEST(ServerEntryParserTest, NotAnEntry) {
  const auto hello = ParseServerEntry("hello world");
  ASSERT_FALSE(hello);
  EXPECT_NE(hello.error().find("not a server entry"), std::string::npos);
  EXPECT_FALSE(ParseServerEntry("a (b)"));
  EXPECT_FALSE(ParseServerEntry("a (b at )"));
  EXPECT_FALSE(ParseServerEntry(""));
}

TEST(ServerEntryParserTest, MemberHeadLeavesTheRest) {
  const auto head = ParseMemberHead("  c3c3 (c3c3 at ssl:[fd00::3]:6643) (adding: catchup)");
  ASSERT_TRUE(head);
  EXPECT_EQ(head->server_id, "c3c3");
  EXPECT_EQ(head->address.host, "fd00::3");
  EXPECT_EQ(head->rest, " (adding: catchup)");
  EXPECT_FALSE(ParseMemberHead("c3c3 c3c3 at x"));
}

}  // namespace
}  // namespace ovn_raft
