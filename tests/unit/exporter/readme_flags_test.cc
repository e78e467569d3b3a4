// The exporter's flag table in docs/flags.md says what its flag table declares.

#include "support/readme_flags.h"

#include <gtest/gtest.h>

#include <string>

#include "exporter/config.h"

namespace ovn_raft {
namespace {

TEST(ReadmeFlags, TheExportersTableIsItsFlagTable) {
  testing::ExpectSameFlags("docs/flags.md", "## Flags", ConfigFlags(), "OVN_RAFT_EXPORTER_");
}

// --help says each default once, from the table.
TEST(ReadmeFlags, HelpShowsTheDefaults) {
  const std::string help = ConfigUsage();
  EXPECT_NE(help.find("(default 2s)"), std::string::npos);
  EXPECT_NE(help.find("(default :10476)"), std::string::npos);
  EXPECT_NE(help.find("(default the OVN databases found at start)"), std::string::npos);
  EXPECT_EQ(help.find("default: unset)"), std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
