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

namespace ovn_raft {
namespace {

SocketDiscovery WithFiles(const std::set<std::string>& files,
                          std::optional<std::string> dbdir = std::nullopt) {
  SocketDiscovery d = DiscoverDatabases(
      std::nullopt, [](const std::string& p) { return p.rfind("/run/ovn/", 0) == 0; });
  DiscoverDatabaseFiles(
      dbdir, [&](const std::string& p) { return files.count(p) > 0; }, d);
  return d;
}

// A Debian host: both files in /var/lib/ovn, found for their databases.
TEST(DatabaseFileDiscoveryTest, DebianFilesInVarLibOvn) {
  const auto d = WithFiles({"/var/lib/ovn/ovnnb_db.db", "/var/lib/ovn/ovnsb_db.db"});
  EXPECT_EQ(d.files_found_in, "/var/lib/ovn");
  ASSERT_EQ(d.targets.size(), 2u);
  EXPECT_EQ(d.targets[0].file_path, "/var/lib/ovn/ovnnb_db.db");
  EXPECT_EQ(d.targets[1].file_path, "/var/lib/ovn/ovnsb_db.db");
  EXPECT_EQ(d.files_tried, UsualDbDirs());
}

// Kube-OVN's container: /etc/ovn, which also holds ovnnb_local_config.db (not a Raft database);
// the first directory with a file wins, and a database without its file there has none.
TEST(DatabaseFileDiscoveryTest, FirstDirectoryWithAFileWins) {
  const auto d = WithFiles({"/etc/ovn/ovnnb_db.db", "/etc/ovn/ovnnb_local_config.db",
                            "/var/lib/openvswitch/ovnsb_db.db"});
  EXPECT_EQ(d.files_found_in, "/etc/ovn");
  EXPECT_EQ(d.targets[0].file_path, "/etc/ovn/ovnnb_db.db");
  EXPECT_EQ(d.targets[1].file_path, "");
}

// OVN_DBDIR, as ovn-ctl reads it, is the only place tried; none found leaves every file empty.
TEST(DatabaseFileDiscoveryTest, OvnDbdirAloneAndNothingFound) {
  const auto d = WithFiles({"/var/lib/ovn/ovnnb_db.db", "/srv/ovn/ovnsb_db.db"}, "/srv/ovn/");
  EXPECT_EQ(d.files_tried, std::vector<std::string>{"/srv/ovn"});
  EXPECT_EQ(d.files_found_in, "/srv/ovn");
  EXPECT_EQ(d.targets[0].file_path, "");
  EXPECT_EQ(d.targets[1].file_path, "/srv/ovn/ovnsb_db.db");
  EXPECT_TRUE(d.targets[0].file_candidates.empty());  // SB's file was found: NB has none
  const auto none = WithFiles({});
  EXPECT_EQ(none.files_found_in, "");
  for (const auto& t : none.targets) EXPECT_EQ(t.file_path, "");
}

// None there yet (the database is created after the exporter starts): each place tried is a
// candidate, in order, for the reader to take once the file appears.
TEST(DatabaseFileDiscoveryTest, NoneYetLeavesEveryPlaceAsACandidate) {
  const auto d = WithFiles({});
  ASSERT_EQ(d.targets.size(), 2u);
  ASSERT_EQ(d.targets[0].file_candidates.size(), UsualDbDirs().size());
  EXPECT_EQ(d.targets[0].file_candidates[0], "/var/lib/ovn/ovnnb_db.db");
  EXPECT_EQ(d.targets[0].file_candidates[1], "/etc/ovn/ovnnb_db.db");
  EXPECT_EQ(d.targets[1].file_candidates.back(), "/var/lib/openvswitch/ovnsb_db.db");
}

// --ovsdb.database for NB alone (kolla's example): SB is still found, or named as not read.
TEST(SocketDiscoveryTest, OneGivenDatabaseKeepsTheOtherFound) {
  const std::vector<DatabaseTarget> nb = {
      {"OVN_Northbound", "/srv/nb/ovnnb_db.ctl", "/srv/nb/ovnnb_db.sock", ""}};
  EXPECT_FALSE(GivesEveryKnownDatabase(nb));
  const auto both =
      AddDiscovered(nb, Discover({"/var/run/ovn/ovnnb_db.ctl", "/var/run/ovn/ovnsb_db.ctl"}));
  ASSERT_EQ(both.targets.size(), 2u);
  EXPECT_EQ(both.targets[0].ctl_path, "/srv/nb/ovnnb_db.ctl");  // the given one, as given
  EXPECT_EQ(both.targets[1].ctl_path, "/var/run/ovn/ovnsb_db.ctl");
  EXPECT_EQ(both.added, (std::vector<std::string>{"OVN_Southbound"}));
  EXPECT_TRUE(both.not_read.empty());

  // Nothing found: SB is not watched where it would start, it is said to be not read.
  const auto none = AddDiscovered(nb, Discover({}));
  ASSERT_EQ(none.targets.size(), 1u);
  ASSERT_EQ(none.not_read.size(), 1u);
  EXPECT_EQ(none.not_read[0].name, "OVN_Southbound");
  EXPECT_EQ(none.not_read[0].ctl_path, "/var/run/ovn/ovnsb_db.ctl");
  EXPECT_EQ(none.not_read[0].sock_path, "/var/run/ovn/ovnsb_db.sock");
}

TEST(SocketDiscoveryTest, AGivenSocketIsNotReadTwice) {
  // NB given under another name, at the socket discovery finds: not added again.
  const std::vector<DatabaseTarget> renamed = {
      {"nb", "/var/run/ovn/ovnnb_db.ctl", "", ""},
      {"OVN_IC_Northbound", "/var/run/ovn/ovn_ic_nb_db.ctl", "", ""}};
  const auto m =
      AddDiscovered(renamed, Discover({"/var/run/ovn/ovnnb_db.ctl", "/var/run/ovn/ovnsb_db.ctl"}));
  ASSERT_EQ(m.targets.size(), 3u);
  EXPECT_EQ(m.added, (std::vector<std::string>{"OVN_Southbound"}));
  EXPECT_TRUE(m.not_read.empty());
  EXPECT_TRUE(GivesEveryKnownDatabase(
      {{"OVN_Southbound", "/a.ctl", "", ""}, {"OVN_Northbound", "/b.ctl", "", ""}}));
}

}  // namespace
}  // namespace ovn_raft
