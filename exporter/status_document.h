#pragma once

// The /status document, read by ovn-raft-report: every database's reading, with the parsed
// status in the parse-status form (parsers/status_json.h).

#include <string>

#include "consensus/expected_cluster.h"
#include "reader/snapshot.h"
#include "reader/socket_discovery.h"

namespace ovn_raft {

// `discovery`: where the databases were looked for, when --ovsdb.database was not given;
// `expected`: what the exporter was told to expect of every cluster.
std::string SnapshotToJson(const Snapshot& snapshot, const SocketDiscovery* discovery = nullptr,
                           const ExpectedCluster& expected = {});

}  // namespace ovn_raft
