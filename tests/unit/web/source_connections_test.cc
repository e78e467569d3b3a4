#include "web/source_connections.h"

#include <gtest/gtest.h>

#include <set>

namespace ovn_raft {
namespace {

// No held connection has sent anything.
bool Silent(int) { return false; }

TEST(SourceConnectionsTest, ABoundPerSourceTwiceItsShareOfTheWorkers) {
  EXPECT_EQ(SourceConnections::LimitFor(256), 128);
  EXPECT_EQ(SourceConnections::LimitFor(32), 16);
  EXPECT_EQ(SourceConnections::LimitFor(8), 8);
}

TEST(SourceConnectionsTest, PastItsBoundASourceShedsItsOldestIdleConnection) {
  SourceConnections c(2);
  EXPECT_TRUE(c.Opened("10.0.0.9", 1001, 11, Silent).admitted);
  EXPECT_TRUE(c.Opened("10.0.0.9", 1002, 12, Silent).admitted);
  // Another source is not held back by the first.
  EXPECT_TRUE(c.Opened("10.0.0.1", 2001, 21, Silent).admitted);
  const auto third = c.Opened("10.0.0.9", 1003, 13, Silent);
  EXPECT_TRUE(third.admitted);
  ASSERT_TRUE(third.shed.has_value());
  EXPECT_EQ(third.shed->fd, 11);
  EXPECT_EQ(third.shed->port, 1001);
  EXPECT_EQ(c.held("10.0.0.9"), 2);
  // The next one sheds the next oldest, not the one already being shed.
  const auto fourth = c.Opened("10.0.0.9", 1004, 14, Silent);
  ASSERT_TRUE(fourth.shed.has_value());
  EXPECT_EQ(fourth.shed->fd, 12);
  EXPECT_EQ(c.held("10.0.0.1"), 1);
  // Four times as many being shed as may be held, none closed yet: the next is refused,
  // nothing shed.
  for (int port = 1005; port < 1011; ++port) {
    EXPECT_TRUE(c.Opened("10.0.0.9", port, port - 990, Silent).shed.has_value());
  }
  const auto refused = c.Opened("10.0.0.9", 1011, 21, Silent);
  EXPECT_FALSE(refused.admitted);
  EXPECT_FALSE(refused.shed.has_value());
  // Unless its client has spoken already, as a scraper does at once: it sheds one more.
  const auto spoken = c.Opened("10.0.0.9", 1013, 23, [](int fd) { return fd == 23; });
  EXPECT_TRUE(spoken.admitted);
  ASSERT_TRUE(spoken.shed.has_value());
  EXPECT_NE(spoken.shed->fd, 23);
  EXPECT_EQ(c.held("10.0.0.9"), 2);
  c.Closed("10.0.0.9", 1001);
  EXPECT_FALSE(c.Opened("10.0.0.9", 1014, 24, Silent).admitted);
  c.Closed("10.0.0.9", 1002);
  EXPECT_TRUE(c.Opened("10.0.0.9", 1012, 22, Silent).shed.has_value());
}

TEST(SourceConnectionsTest, ConnectionsServingRequestsAreNeverShed) {
  SourceConnections c(2);
  c.Opened("10.0.0.9", 1001, 11, Silent);
  c.Opened("10.0.0.9", 1002, 12, Silent);
  c.Requested("10.0.0.9", 1001);
  const auto third = c.Opened("10.0.0.9", 1003, 13, Silent);
  ASSERT_TRUE(third.shed.has_value());
  EXPECT_EQ(third.shed->fd, 12);
  c.Requested("10.0.0.9", 1003);
  // Both held connections are serving requests: the new one is refused, nothing shed.
  const auto fourth = c.Opened("10.0.0.9", 1004, 14, Silent);
  EXPECT_FALSE(fourth.admitted);
  EXPECT_FALSE(fourth.shed.has_value());
  // A closed one frees its place.
  c.Closed("10.0.0.9", 1001);
  EXPECT_TRUE(c.Opened("10.0.0.9", 1005, 15, Silent).admitted);
}

TEST(SourceConnectionsTest, ClosingForgetsEverything) {
  SourceConnections c(1);
  c.Opened("10.0.0.9", 1001, 11, Silent);
  const auto shed = c.Opened("10.0.0.9", 1002, 12, Silent);
  ASSERT_TRUE(shed.shed.has_value());
  c.Closed("10.0.0.9", 1001);
  c.Closed("10.0.0.9", 1002);
  c.Closed("10.0.0.9", 1003);  // never counted: nothing happens
  c.Closed("10.0.0.7", 1003);
  EXPECT_EQ(c.held("10.0.0.9"), 0);
  const auto again = c.Opened("10.0.0.9", 1004, 14, Silent);
  EXPECT_TRUE(again.admitted);
  EXPECT_FALSE(again.shed.has_value());
}

TEST(SourceConnectionsTest, ThoseThatSentNothingAreShedBeforeSlowOnes) {
  SourceConnections c(3);
  const std::set<int> sending{11, 13};
  int asked = 0;
  const auto has_sent = [&](int fd) {
    ++asked;
    return sending.count(fd) > 0;
  };
  c.Opened("10.0.0.9", 1001, 11, has_sent);  // slow: sent part of a request
  c.Opened("10.0.0.9", 1002, 12, has_sent);  // idle
  c.Opened("10.0.0.9", 1003, 13, has_sent);  // a TLS handshake under way
  EXPECT_EQ(asked, 0);                       // nothing asked while under the bound
  const auto fourth = c.Opened("10.0.0.9", 1004, 14, has_sent);
  ASSERT_TRUE(fourth.shed.has_value());
  EXPECT_EQ(fourth.shed->fd, 12);
  c.Closed("10.0.0.9", 1002);
  // 11 is known to have sent: not asked again. 13 and 14 are asked; 14 has sent nothing.
  asked = 0;
  const auto fifth = c.Opened("10.0.0.9", 1005, 15, has_sent);
  ASSERT_TRUE(fifth.shed.has_value());
  EXPECT_EQ(fifth.shed->fd, 14);
  EXPECT_EQ(asked, 2);
  c.Closed("10.0.0.9", 1004);
  const auto sixth = c.Opened("10.0.0.9", 1006, 16, has_sent);
  ASSERT_TRUE(sixth.shed.has_value());
  EXPECT_EQ(sixth.shed->fd, 15);
  c.Closed("10.0.0.9", 1005);
  // Every one has sent something: the oldest goes.
  const auto seventh = c.Opened("10.0.0.9", 1007, 17, [](int) { return true; });
  ASSERT_TRUE(seventh.shed.has_value());
  EXPECT_EQ(seventh.shed->fd, 11);
}

}  // namespace
}  // namespace ovn_raft
