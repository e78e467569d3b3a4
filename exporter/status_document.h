#pragma once

// The /status document, read by ovn-raft-report: every database's reading, with the parsed
// status in the parse-status form (parsers/status_json.h).

#include <string>

#include "reader/snapshot.h"
#include "reader/socket_discovery.h"

namespace ovn_raft {

// `discovery`: where the databases were looked for, when --ovsdb.database was not given.
std::string SnapshotToJson(const Snapshot& snapshot, const SocketDiscovery* discovery = nullptr);

}  // namespace ovn_raft
