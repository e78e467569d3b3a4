#pragma once

// The health of ovsdb-server's main loop, per database read: how late the server answered the
// exporter, and how many turns of its loop took a second or longer. ovsdb-server is
// single-threaded: a loop that stalls sends no Raft heartbeat and answers no vote, so a stalled
// leader loses its followers and a stalled follower may start an election when it wakes. Pure.

#include "metrics/family_builder.h"
#include "reader/snapshot.h"

namespace ovn_raft {

void AddMainLoopMetrics(const DatabaseReading& r, FamilyBuilder& b);

}  // namespace ovn_raft
