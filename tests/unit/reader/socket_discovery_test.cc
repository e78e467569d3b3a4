// Without --ovsdb.database, the databases are looked for where ovn-ctl and the usual packagings
// put them; the file system is a set of socket paths here.

#include "reader/socket_discovery.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace ovn_raft {
namespace {

SocketDiscovery Discover(const std::set<std::string>& sockets,
                         std::optional<std::string> rundir = std::nullopt) {
  return DiscoverDatabases(rundir, [&](const std::string& p) { return sockets.count(p) > 0; });
}

TEST(SocketDiscoveryTest, DebianNbAndSbInVarRunOvn) {
  const auto d = Discover({"/var/run/ovn/ovnnb_db.ctl", "/var/run/ovn/ovnsb_db.ctl"});
  EXPECT_EQ(d.found_in, "/var/run/ovn");
  ASSERT_EQ(d.targets.size(), 2u);
  EXPECT_EQ(d.targets[0].name, "OVN_Northbound");
  EXPECT_EQ(d.targets[0].ctl_path, "/var/run/ovn/ovnnb_db.ctl");
  EXPECT_EQ(d.targets[0].sock_path, "/var/run/ovn/ovnnb_db.sock");
  EXPECT_EQ(d.targets[1].name, "OVN_Southbound");
  EXPECT_EQ(d.targets[1].ctl_path, "/var/run/ovn/ovnsb_db.ctl");
  EXPECT_EQ(d.tried, UsualRunDirs());  // the whole search order, found or not
}

TEST(SocketDiscoveryTest, OnlySouthboundIsNormal) {
  const auto d = Discover({"/run/ovn/ovnsb_db.ctl"});
  EXPECT_EQ(d.found_in, "/run/ovn");
  ASSERT_EQ(d.targets.size(), 1u);
  EXPECT_EQ(d.targets[0].name, "OVN_Southbound");
  EXPECT_EQ(d.tried, UsualRunDirs());
}

TEST(SocketDiscoveryTest, MicroOvnAndOpenstackHelm) {
  EXPECT_EQ(Discover({"/var/snap/microovn/common/run/ovn/ovnnb_db.ctl"}).found_in,
            "/var/snap/microovn/common/run/ovn");
  const auto helm = Discover({"/run/openvswitch/ovnnb_db.ctl", "/run/openvswitch/ovnsb_db.ctl"});
  EXPECT_EQ(helm.found_in, "/run/openvswitch");
  EXPECT_EQ(helm.targets.size(), 2u);
  EXPECT_EQ(helm.tried.size(), 4u);
}

TEST(SocketDiscoveryTest, NoneFoundSaysWhereItLookedAndWatchesTheFirstPlace) {
  const auto d = Discover({"/elsewhere/ovnnb_db.ctl"});
  EXPECT_EQ(d.found_in, "");
  EXPECT_EQ(d.tried, UsualRunDirs());
  ASSERT_EQ(d.targets.size(), 2u);
  EXPECT_EQ(d.targets[0].ctl_path, "/var/run/ovn/ovnnb_db.ctl");
  EXPECT_EQ(d.targets[1].ctl_path, "/var/run/ovn/ovnsb_db.ctl");
}

TEST(SocketDiscoveryTest, OvnRundirIsTheOnlyPlaceTriedAsInOvnCtl) {
  const auto d = Discover({"/var/run/ovn/ovnnb_db.ctl", "/srv/ovn/ovnsb_db.ctl"}, "/srv/ovn/");
  EXPECT_EQ(d.tried, std::vector<std::string>{"/srv/ovn"});
  EXPECT_EQ(d.found_in, "/srv/ovn");
  ASSERT_EQ(d.targets.size(), 1u);
  EXPECT_EQ(d.targets[0].sock_path, "/srv/ovn/ovnsb_db.sock");
  const auto empty = Discover({"/var/run/ovn/ovnnb_db.ctl"}, "");  // set but empty: unset
  EXPECT_EQ(empty.found_in, "/var/run/ovn");
}

TEST(SocketDiscoveryTest, IsSocketIsFalseForAFileOrNothing) {
  EXPECT_FALSE(IsSocket("/nonexistent/ovnnb_db.ctl"));
  EXPECT_FALSE(IsSocket("/etc/hostname"));
}

}  // namespace
}  // namespace ovn_raft
