#pragma once

// What an ovsdb-server says of itself beside its Raft status: its release (`version`), its
// counts of data, clients and backlogs (`memory/show`), its storage's error
// (`ovsdb-server/get-db-storage-status`) and how long it has run unrestarted. Pure.

#include <chrono>

#include "metrics/family_builder.h"
#include "reader/snapshot.h"

namespace ovn_raft {

void AddOvsdbServerMetrics(const DatabaseReading& r, FamilyBuilder& b);

}  // namespace ovn_raft
