// Text no ovsdb-server prints: invalid UTF-8 and impossible figures, as a hostile socket might
// send.

#include <gtest/gtest.h>

#include "base/utf8.h"
#include "parsers/cluster_status_parser.h"
#include "support/fixtures.h"

namespace ovn_raft {
namespace {

TEST(ClusterStatusParserHostileTextTest, ANonUtf8ByteInTheStatusBecomesAValidName) {
  std::string text = testing::Fixture("ovs-3.1.0/leader.txt");
  const auto at = text.find("Name: ") + 6;
  text.insert(at, "\xFF");
  const auto status = ParseClusterStatus(ValidUtf8(text));
  ASSERT_TRUE(status.name.has_value());
  EXPECT_EQ(status.name->rfind("\xEF\xBF\xBD", 0), 0u);
}

TEST(ClusterStatusParserHostileTextTest, ImpossibleElectionAgesAreWarningsNotTimestamps) {
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

}  // namespace
}  // namespace ovn_raft
