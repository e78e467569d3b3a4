#include "parsers/connections_parser.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

TEST(ConnectionsParserTest, DirectionsPeersAndState) {
  const auto c = ParseConnections(" ->0000 <-58cd (->fcf5) (<-1a2b)");
  ASSERT_TRUE(c.has_value());
  ASSERT_EQ(c->size(), 4u);
  EXPECT_TRUE((*c)[0].outbound);
  EXPECT_EQ((*c)[0].peer, "0000");
  EXPECT_TRUE((*c)[0].connected);
  EXPECT_FALSE((*c)[1].outbound);
  EXPECT_EQ((*c)[1].peer, "58cd");
  EXPECT_TRUE((*c)[2].outbound);
  EXPECT_FALSE((*c)[2].connected);
  EXPECT_FALSE((*c)[3].outbound);
  EXPECT_FALSE((*c)[3].connected);
}

TEST(ConnectionsParserTest, EmptyListIsValid) {
  const auto c = ParseConnections("");
  ASSERT_TRUE(c.has_value());
  EXPECT_TRUE(c->empty());
}

TEST(ConnectionsParserTest, RejectsMalformedTokens) {
  EXPECT_FALSE(ParseConnections("=>abcd").has_value());
  EXPECT_FALSE(ParseConnections("(->abcd").has_value());
  EXPECT_FALSE(ParseConnections("->").has_value());
  EXPECT_FALSE(ParseConnections("()").has_value());
}

}  // namespace
}  // namespace ovn_raft
