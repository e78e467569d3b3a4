#pragma once

// What a reading says of its database's model, and what follows from it. A database without
// Raft (standalone, relay) answers cluster/status with an error: expected, not a failure, and
// the database is read through its _Server row and its server's own facts instead. Pure.

#include <string>

#include "reader/snapshot.h"

namespace ovn_raft {

// Sets r.model from the _Server row (or clustered, when the Raft status was read without one)
// and clears cluster/status's error reply where the model explains it. A row naming a model
// this exporter does not know, with no Raft status, fails the read as kNotClustered.
void TakeModel(DatabaseReading& r);

// What the exporter found, in one sentence for the log ("OVN_Northbound is a standalone
// database: serving its server's facts, no Raft status").
std::string ModelFinding(const std::string& db, DatabaseModel model);

}  // namespace ovn_raft
