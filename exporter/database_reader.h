#pragma once

// The I/O edge: reads every watched database from the local ovsdb-server. Read-only: sends only
// `cluster/status` and a _Server select.

#include <vector>

#include "config.h"
#include "jsonrpc_client.h"
#include "snapshot.h"

namespace ovn_raft {

// Reads one database: cluster/status on its .ctl socket and _Server on its .sock socket, both
// within one deadline.
DatabaseReading ReadDatabase(const DatabaseTarget& target, const CallOptions& options);

// Reads every database in parallel, each with its own deadline, so one hung database delays
// nothing but itself and the round ends within one timeout.
Snapshot ReadAll(const std::vector<DatabaseTarget>& targets, const CallOptions& options);

}  // namespace ovn_raft
