#pragma once

// Turns one round of readings into metric families. Pure: the snapshot carries the wall-clock
// time of the round, which converts "N ms ago" into Unix timestamps.

#include <prometheus/metric_family.h>

#include <vector>

#include "read_coordinator.h"
#include "snapshot.h"

namespace ovn_raft {

// `errors` and `rounds` are the cumulative counters kept by the ReadCoordinator;
// `expected_members` (0: unset) is the operator's --expected-members.
std::vector<prometheus::MetricFamily> BuildRaftMetrics(const Snapshot& snapshot,
                                                       const ReadCoordinator::ErrorCounts& errors,
                                                       std::uint64_t rounds,
                                                       int expected_members = 0);

}  // namespace ovn_raft
