#pragma once

// Turns one round of readings into metric families. Pure: the snapshot carries the wall-clock
// time of the round, which converts "N ms ago" into Unix timestamps.

#include <prometheus/metric_family.h>

#include <vector>

#include "expectations.h"
#include "read_coordinator.h"
#include "snapshot.h"

namespace ovn_raft {

// `errors` and `rounds` are the cumulative counters kept by the ReadCoordinator; `expected` is
// the operator's --expected-members and --expected-hosts.
std::vector<prometheus::MetricFamily> BuildRaftMetrics(const Snapshot& snapshot,
                                                       const ReadCoordinator::ErrorCounts& errors,
                                                       std::uint64_t rounds,
                                                       const Expectations& expected = {});

}  // namespace ovn_raft
