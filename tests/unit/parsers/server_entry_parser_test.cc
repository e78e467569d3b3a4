#include "parsers/server_entry_parser.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

TEST(ServerEntryParserTest, LeaderViewOfFollower) {
  ServerEntry e;
  std::string error;
  ASSERT_TRUE(ParseServerEntry(
      "    58cd (58cd at tcp:127.0.0.2:38683) next_index=5 match_index=4 last msg 323 ms ago", &e,
      &error));
  EXPECT_EQ(error, "");
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
  ServerEntry e;
  std::string error;
  ASSERT_TRUE(ParseServerEntry("    6355 (6355 at tcp:127.0.0.1:26245) (self) (voted for 6355)", &e,
                               &error));
  EXPECT_EQ(error, "");
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
    ServerEntry e;
    std::string error;
    ASSERT_TRUE(ParseServerEntry(std::string("a (a at tcp:[::1]:1) ") + flag, &e, &error));
    EXPECT_EQ(error, "") << flag;
    EXPECT_EQ(e.phase, phase) << flag;
    EXPECT_EQ(e.address.host, "::1");
  }
}

TEST(ServerEntryParserTest, UnknownTailKeepsEntryWithError) {
  ServerEntry e;
  std::string error;
  ASSERT_TRUE(ParseServerEntry("a1b2 (a1b2 at tcp:1.1.1.1:6641) (self) shiny=1", &e, &error));
  EXPECT_TRUE(e.self);
  EXPECT_NE(error.find("shiny"), std::string::npos);

  error.clear();
  ASSERT_TRUE(ParseServerEntry("a1b2 (a1b2 at tcp:1.1.1.1:6641) (sleepy)", &e, &error));
  EXPECT_NE(error.find("sleepy"), std::string::npos);

  error.clear();
  ServerEntry partial;
  ASSERT_TRUE(
      ParseServerEntry("a1b2 (a1b2 at tcp:1.1.1.1:6641) last msg x ms ago", &partial, &error));
  EXPECT_FALSE(partial.last_msg_ms_ago.has_value());
  EXPECT_FALSE(error.empty());
}

TEST(ServerEntryParserTest, NotAnEntry) {
  ServerEntry e;
  std::string error;
  EXPECT_FALSE(ParseServerEntry("hello world", &e, &error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(ParseServerEntry("a (b)", &e, &error));
  EXPECT_FALSE(ParseServerEntry("a (b at )", &e, &error));
  EXPECT_FALSE(ParseServerEntry("", &e, &error));
}

}  // namespace
}  // namespace ovn_raft
