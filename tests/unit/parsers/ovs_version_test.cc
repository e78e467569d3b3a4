#include "parsers/ovs_version.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

// Replies as ovsdb-server 3.1.0 (Debian 12), 3.5.0 (Debian 13) and 4.0.0 (Debian unstable)
// sent them to `ovs-appctl version`, captured live.
TEST(OvsVersionTest, RealReplies) {
  EXPECT_EQ(ParseOvsVersion("ovsdb-server (Open vSwitch) 3.1.0\n"), "3.1.0");
  EXPECT_EQ(ParseOvsVersion("ovsdb-server (Open vSwitch) 3.5.0"), "3.5.0");
  EXPECT_EQ(ParseOvsVersion("ovsdb-server (Open vSwitch) 4.0.0\n"), "4.0.0");
}

// Development builds and distributions append to the release; the suffix is kept.
TEST(OvsVersionTest, SuffixesAreKept) {
  EXPECT_EQ(ParseOvsVersion("ovsdb-server (Open vSwitch) 3.5.90\n"), "3.5.90");
  EXPECT_EQ(ParseOvsVersion("ovsdb-server (Open vSwitch) 3.1.0-65.el9fdp\n"), "3.1.0-65.el9fdp");
  // Only the first line counts.
  EXPECT_EQ(ParseOvsVersion("ovsdb-server (Open vSwitch) 3.3.0\nDB Schema 8.5.0\n"), "3.3.0");
}

TEST(OvsVersionTest, AnythingElseIsRefused) {
  EXPECT_FALSE(ParseOvsVersion(""));
  EXPECT_FALSE(ParseOvsVersion("\n"));
  EXPECT_FALSE(ParseOvsVersion("(Open vSwitch) 3.1.0"));            // no program
  EXPECT_FALSE(ParseOvsVersion("ovsdb-server (Open vSwitch) \n"));  // no release
  EXPECT_FALSE(ParseOvsVersion("ovsdb-server 3.1.0"));              // not OVS's form
  EXPECT_FALSE(ParseOvsVersion("ovsdb-server (Open vSwitch) v3.1.0"));
  EXPECT_FALSE(ParseOvsVersion("ovsdb-server (Open vSwitch) 3.1.0 \"}"));  // not a token
  EXPECT_FALSE(ParseOvsVersion("ovsdb-server (Open vSwitch) 3." + std::string(100, '1')));
  EXPECT_FALSE(ParseOvsVersion("\novsdb-server (Open vSwitch) 3.1.0"));  // not the first line
}

}  // namespace
}  // namespace ovn_raft
