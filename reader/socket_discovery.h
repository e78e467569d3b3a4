#pragma once

// Where the local OVN databases' sockets are when --ovsdb.database is not given. ovn-ctl puts
// them in $OVN_RUNDIR, /var/run/ovn by default (Debian, Ubuntu, Kube-OVN); RHEL and Fedora's
// units use /run/ovn, MicroOVN's snap /var/snap/microovn/common/run/ovn, and openstack-helm
// mounts the host's /run/openvswitch as its pods' /var/run/ovn. The database files are found
// the same way, for their size and their filesystem's free space. Pure: whether a path is a
// socket or a file is asked of a function, so it is tested without a file system.
//
// The interconnection databases are Raft clusters too, found by the names ovn-ctl gives them
// beside NB's and SB's (utilities/ovn-ctl, set_defaults: $OVN_RUNDIR/ovn_ic_nb_db.ctl and .sock,
// $ovn_dbdir/ovn_ic_nb_db.db, the same for ovn_ic_sb_db). Kube-OVN's ovn-ic-server runs them
// with ovn-ctl on its own hosts, sockets in /var/run/ovn (the host's /run/ovn, shared with
// ovn-central on the same node) and files in /etc/ovn (dist/images/install-ic-server.sh,
// start-ic-db.sh, ovn-ic-healthcheck.sh): a host may hold them alone.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "reader/database_target.h"

namespace ovn_raft {

struct SocketDiscovery {
  std::vector<DatabaseTarget> targets;   // the databases to watch
  std::vector<std::string> tried;        // the places searched, in order of preference
  std::string found_in;                  // the first with a database; empty when none had one
  std::vector<std::string> files_tried;  // where database files were looked for, in order
  std::string files_found_in;            // the first holding a database's file; may be empty
};

// The places tried, in order, when OVN_RUNDIR is not set.
const std::vector<std::string>& UsualRunDirs();

// With OVN_RUNDIR set, only that directory is tried, as ovn-ctl uses only it. The first
// directory holding the unixctl socket of NB, SB, IC-NB or IC-SB gives the targets: those of
// its databases that are there (a host may serve only one, or only the interconnection pair).
// When none has one, NB and SB are watched in the first directory tried, so that they are read
// once they start there; the interconnection databases, which most hosts never run, are not.
SocketDiscovery DiscoverDatabases(const std::optional<std::string>& ovn_rundir,
                                  const std::function<bool(const std::string&)>& is_socket);

// The database directories tried, in order, when OVN_DBDIR is not set: Debian, Ubuntu, RHEL and
// Fedora hosts (and charm-ovn-central) keep the files in /var/lib/ovn; Kube-OVN's and
// ovn-kubernetes' ovn-central containers in /etc/ovn (a host directory); MicroOVN's snap in its
// data/central/db; charm-ovn-central's oldest releases in /var/lib/openvswitch.
const std::vector<std::string>& UsualDbDirs();

// Fills in the database file of each target whose name ovn-ctl gives (ovnnb_db.db,
// ovnsb_db.db, ovn_ic_nb_db.db, ovn_ic_sb_db.db) from the first directory holding one of a
// target's: OVN_DBDIR alone when set, else the usual ones. When no directory holds one yet, every
// place tried becomes a candidate (the reader takes the first that appears); a target beside one
// that was found stays without.
void DiscoverDatabaseFiles(const std::optional<std::string>& ovn_dbdir,
                           const std::function<bool(const std::string&)>& is_file,
                           SocketDiscovery& found);

// --ovsdb.database given for some databases only: the given ones, then each database
// discovery knows (NB, SB, IC-NB, IC-SB) not given by name whose socket `found` found (never
// one it would only watch for, nor a socket already given under another name). `not_read` has,
// for each of NB and SB neither given nor found, its sockets where ovn-ctl would put them in
// the first place tried: the flag to add. A missing interconnection database is not advice:
// most hosts have none.
struct DiscoveryMerge {
  std::vector<DatabaseTarget> targets;
  std::vector<std::string> added;        // names of the databases added from `found`
  std::vector<DatabaseTarget> not_read;  // their usual sockets, for the advice
};
DiscoveryMerge AddDiscovered(const std::vector<DatabaseTarget>& given,
                             const SocketDiscovery& found);

// Whether every database discovery watches for (NB and SB) is given by name: then discovery
// need not run, and the interconnection databases are read only when given too.
bool GivesEveryKnownDatabase(const std::vector<DatabaseTarget>& given);

// Whether `path` is a unix socket now.
bool IsSocket(const std::string& path);
// Whether `path` is a regular file now.
bool IsRegularFile(const std::string& path);

}  // namespace ovn_raft
