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

// Kube-OVN's ovn-ic-server: ovn-ctl's names for the interconnection databases, alone in
// /var/run/ovn on a host that runs no NB or SB.
TEST(SocketDiscoveryTest, InterconnectionDatabasesAloneAreFound) {
  const auto d = Discover({"/var/run/ovn/ovn_ic_nb_db.ctl", "/var/run/ovn/ovn_ic_sb_db.ctl"});
  EXPECT_EQ(d.found_in, "/var/run/ovn");
  ASSERT_EQ(d.targets.size(), 2u);
  EXPECT_EQ(d.targets[0].name, "OVN_IC_Northbound");
  EXPECT_EQ(d.targets[0].ctl_path, "/var/run/ovn/ovn_ic_nb_db.ctl");
  EXPECT_EQ(d.targets[0].sock_path, "/var/run/ovn/ovn_ic_nb_db.sock");
  EXPECT_EQ(d.targets[1].name, "OVN_IC_Southbound");
  EXPECT_EQ(d.targets[1].ctl_path, "/var/run/ovn/ovn_ic_sb_db.ctl");
  EXPECT_EQ(d.targets[1].sock_path, "/var/run/ovn/ovn_ic_sb_db.sock");
  const auto one = Discover({"/srv/ovn/ovn_ic_sb_db.ctl"}, "/srv/ovn");
  EXPECT_EQ(one.found_in, "/srv/ovn");
  ASSERT_EQ(one.targets.size(), 1u);
  EXPECT_EQ(one.targets[0].name, "OVN_IC_Southbound");
}

// A Kube-OVN master running ovn-central and ovn-ic-server: both mount the host's /run/ovn, so
// all four databases are there, NB and SB first.
TEST(SocketDiscoveryTest, AllFourDatabasesInOneDirectory) {
  const auto d = Discover({"/var/run/ovn/ovnnb_db.ctl", "/var/run/ovn/ovnsb_db.ctl",
                           "/var/run/ovn/ovn_ic_nb_db.ctl", "/var/run/ovn/ovn_ic_sb_db.ctl"});
  EXPECT_EQ(d.found_in, "/var/run/ovn");
  std::vector<std::string> names;
  for (const auto& t : d.targets) names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"OVN_Northbound", "OVN_Southbound",
                                             "OVN_IC_Northbound", "OVN_IC_Southbound"}));
}

// The first place holding any of the four wins, an interconnection database as much as NB.
TEST(SocketDiscoveryTest, FirstDirectoryWithAnyDatabaseWins) {
  const auto d = Discover({"/var/run/ovn/ovn_ic_nb_db.ctl", "/run/ovn/ovnnb_db.ctl"});
  EXPECT_EQ(d.found_in, "/var/run/ovn");
  ASSERT_EQ(d.targets.size(), 1u);
  EXPECT_EQ(d.targets[0].name, "OVN_IC_Northbound");
  // Only a database socket (.sock) is not a find: the unixctl socket is what is read.
  EXPECT_EQ(Discover({"/var/run/ovn/ovn_ic_nb_db.sock"}).found_in, "");
}

// Nothing found: NB and SB are watched where they would start, never the interconnection
// databases, which most hosts do not run.
TEST(SocketDiscoveryTest, NoneFoundWatchesNbAndSbOnly) {
  const auto d = Discover({});
  ASSERT_EQ(d.targets.size(), 2u);
  EXPECT_EQ(d.targets[0].name, "OVN_Northbound");
  EXPECT_EQ(d.targets[1].name, "OVN_Southbound");
}

TEST(SocketDiscoveryTest, IsSocketIsFalseForAFileOrNothing) {
  EXPECT_FALSE(IsSocket("/nonexistent/ovnnb_db.ctl"));
  EXPECT_FALSE(IsSocket("/etc/hostname"));
}

}  // namespace
}  // namespace ovn_raft

namespace ovn_raft {
namespace {

// The sockets of NB and SB in /run/ovn unless `sockets` says otherwise.
SocketDiscovery WithFiles(const std::set<std::string>& files,
                          std::optional<std::string> dbdir = std::nullopt,
                          const std::set<std::string>& sockets = {"/run/ovn/ovnnb_db.ctl",
                                                                  "/run/ovn/ovnsb_db.ctl"}) {
  SocketDiscovery d =
      DiscoverDatabases(std::nullopt, [&](const std::string& p) { return sockets.count(p) > 0; });
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

// Kube-OVN's ovn-ic-server: the interconnection databases' files in /etc/ovn (the host's
// /etc/origin/ovn), named as ovn-ctl names them; OVN_DBDIR alone when set.
TEST(DatabaseFileDiscoveryTest, InterconnectionFilesFoundForTheirDatabases) {
  const std::set<std::string> ic = {"/var/run/ovn/ovn_ic_nb_db.ctl",
                                    "/var/run/ovn/ovn_ic_sb_db.ctl"};
  const auto d =
      WithFiles({"/etc/ovn/ovn_ic_nb_db.db", "/etc/ovn/ovn_ic_sb_db.db"}, std::nullopt, ic);
  EXPECT_EQ(d.files_found_in, "/etc/ovn");
  ASSERT_EQ(d.targets.size(), 2u);
  EXPECT_EQ(d.targets[0].file_path, "/etc/ovn/ovn_ic_nb_db.db");
  EXPECT_EQ(d.targets[1].file_path, "/etc/ovn/ovn_ic_sb_db.db");

  const auto dbdir = WithFiles({"/srv/db/ovn_ic_sb_db.db", "/etc/ovn/ovn_ic_nb_db.db"}, "/srv/db",
                               {"/var/run/ovn/ovn_ic_nb_db.ctl", "/var/run/ovn/ovn_ic_sb_db.ctl"});
  EXPECT_EQ(dbdir.files_found_in, "/srv/db");
  EXPECT_EQ(dbdir.targets[0].file_path, "");
  EXPECT_EQ(dbdir.targets[1].file_path, "/srv/db/ovn_ic_sb_db.db");

  // None there yet: each place tried is a candidate for the interconnection files too.
  const auto none = WithFiles({}, std::nullopt, ic);
  ASSERT_EQ(none.targets[0].file_candidates.size(), UsualDbDirs().size());
  EXPECT_EQ(none.targets[0].file_candidates[1], "/etc/ovn/ovn_ic_nb_db.db");
  EXPECT_EQ(none.targets[1].file_candidates[0], "/var/lib/ovn/ovn_ic_sb_db.db");
}

// A Debian host with ovn-central and ovn-ic-db: the four files in /var/lib/ovn.
TEST(DatabaseFileDiscoveryTest, AllFourFilesInOneDirectory) {
  const auto d = WithFiles({"/var/lib/ovn/ovnnb_db.db", "/var/lib/ovn/ovnsb_db.db",
                            "/var/lib/ovn/ovn_ic_nb_db.db", "/var/lib/ovn/ovn_ic_sb_db.db"},
                           std::nullopt,
                           {"/var/run/ovn/ovnnb_db.ctl", "/var/run/ovn/ovnsb_db.ctl",
                            "/var/run/ovn/ovn_ic_nb_db.ctl", "/var/run/ovn/ovn_ic_sb_db.ctl"});
  ASSERT_EQ(d.targets.size(), 4u);
  for (const auto& t : d.targets) {
    EXPECT_EQ(t.file_path.rfind("/var/lib/ovn/", 0), 0u) << t.name;
    EXPECT_TRUE(t.file_candidates.empty()) << t.name;
  }
  EXPECT_EQ(d.targets[2].file_path, "/var/lib/ovn/ovn_ic_nb_db.db");
  EXPECT_EQ(d.targets[3].file_path, "/var/lib/ovn/ovn_ic_sb_db.db");
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

// NB given by hand on a host that also runs the interconnection databases: SB and both of
// them are added, in ovn-ctl's order.
TEST(SocketDiscoveryTest, TheInterconnectionDatabasesAreAddedLikeSb) {
  const std::vector<DatabaseTarget> nb = {
      {"OVN_Northbound", "/srv/nb/ovnnb_db.ctl", "/srv/nb/ovnnb_db.sock", ""}};
  const auto m = AddDiscovered(
      nb, Discover({"/var/run/ovn/ovnnb_db.ctl", "/var/run/ovn/ovnsb_db.ctl",
                    "/var/run/ovn/ovn_ic_nb_db.ctl", "/var/run/ovn/ovn_ic_sb_db.ctl"}));
  ASSERT_EQ(m.targets.size(), 4u);
  EXPECT_EQ(m.added,
            (std::vector<std::string>{"OVN_Southbound", "OVN_IC_Northbound", "OVN_IC_Southbound"}));
  EXPECT_EQ(m.targets[2].ctl_path, "/var/run/ovn/ovn_ic_nb_db.ctl");
  EXPECT_EQ(m.targets[3].sock_path, "/var/run/ovn/ovn_ic_sb_db.sock");
  EXPECT_TRUE(m.not_read.empty());
}

// IC-NB given by hand on an ovn-ic-server host: IC-SB is added; a missing interconnection
// database is never advice, NB and SB missing still are.
TEST(SocketDiscoveryTest, AMissingInterconnectionDatabaseIsNotAdvice) {
  const std::vector<DatabaseTarget> ic_nb = {
      {"OVN_IC_Northbound", "/var/run/ovn/ovn_ic_nb_db.ctl", "", ""}};
  const auto m = AddDiscovered(
      ic_nb, Discover({"/var/run/ovn/ovn_ic_nb_db.ctl", "/var/run/ovn/ovn_ic_sb_db.ctl"}));
  ASSERT_EQ(m.targets.size(), 2u);
  EXPECT_EQ(m.added, (std::vector<std::string>{"OVN_IC_Southbound"}));
  ASSERT_EQ(m.not_read.size(), 2u);
  EXPECT_EQ(m.not_read[0].name, "OVN_Northbound");
  EXPECT_EQ(m.not_read[1].name, "OVN_Southbound");

  // Given under another name at the socket discovery finds: not read twice.
  const std::vector<DatabaseTarget> renamed = {{"icnb", "/var/run/ovn/ovn_ic_nb_db.ctl", "", ""}};
  const auto r = AddDiscovered(
      renamed, Discover({"/var/run/ovn/ovn_ic_nb_db.ctl", "/var/run/ovn/ovn_ic_sb_db.ctl"}));
  EXPECT_EQ(r.added, (std::vector<std::string>{"OVN_IC_Southbound"}));

  // Nothing found: only NB and SB are named as not read.
  const std::vector<DatabaseTarget> nb = {{"OVN_Northbound", "/srv/nb/ovnnb_db.ctl", "", ""}};
  const auto none = AddDiscovered(nb, Discover({}));
  ASSERT_EQ(none.not_read.size(), 1u);
  EXPECT_EQ(none.not_read[0].name, "OVN_Southbound");
}

// NB and SB given: discovery does not run, whether or not the interconnection databases are
// given too.
TEST(SocketDiscoveryTest, NbAndSbGivenAreEveryDatabaseDiscoveryNeeds) {
  EXPECT_TRUE(GivesEveryKnownDatabase(
      {{"OVN_Northbound", "/a.ctl", "", ""}, {"OVN_Southbound", "/b.ctl", "", ""}}));
  EXPECT_FALSE(GivesEveryKnownDatabase(
      {{"OVN_IC_Northbound", "/a.ctl", "", ""}, {"OVN_IC_Southbound", "/b.ctl", "", ""}}));
}

}  // namespace
}  // namespace ovn_raft
