#pragma once

#include <string_view>

#include "parsers/cluster_status.h"

namespace ovn_raft {

// Parses the text of `cluster/status DB` as printed by every ovsdb-server release
// since 2.9.1 (docs/ovs-releases.md lists the releases whose output the fixtures capture).
// Pure and total: never throws, accepts any bytes. Lines it does not understand are skipped
// and listed in `warnings`; lines an OVS version does not print leave their fields absent.
ClusterStatus ParseClusterStatus(std::string_view text);

}  // namespace ovn_raft
