#pragma once

// Where the local OVN databases' sockets are when --ovsdb.database is not given. ovn-ctl puts
// them in $OVN_RUNDIR, /var/run/ovn by default (Debian, Ubuntu, Kube-OVN); RHEL and Fedora's
// units use /run/ovn, MicroOVN's snap /var/snap/microovn/common/run/ovn, and openstack-helm
// mounts the host's /run/openvswitch as its pods' /var/run/ovn. Pure: whether a path is a
// socket is asked of `is_socket`, so it is tested without a file system.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "reader/database_target.h"

namespace ovn_raft {

struct SocketDiscovery {
  std::vector<DatabaseTarget> targets;  // the databases to watch
  std::vector<std::string> tried;       // the places searched, in order of preference
  std::string found_in;                 // the first with a database; empty when none had one
};

// The places tried, in order, when OVN_RUNDIR is not set.
const std::vector<std::string>& UsualRunDirs();

// With OVN_RUNDIR set, only that directory is tried, as ovn-ctl uses only it. The first
// directory holding the unixctl socket of NB or SB gives the targets: those of its databases
// that are there (a host may serve only one). When none has one, NB and SB are watched in the
// first directory tried, so that they are read once they start there.
SocketDiscovery DiscoverDatabases(const std::optional<std::string>& ovn_rundir,
                                  const std::function<bool(const std::string&)>& is_socket);

// Whether `path` is a unix socket now.
bool IsSocket(const std::string& path);

}  // namespace ovn_raft
