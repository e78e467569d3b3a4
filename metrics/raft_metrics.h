#pragma once

// Turns one round of readings into metric families. Pure: the snapshot carries the wall-clock
// time of the round, which converts "N ms ago" into Unix timestamps.

#include <cstdint>
#include <vector>

#include "consensus/expected_cluster.h"
#include "metrics/metric_family.h"
#include "reader/error_counts.h"
#include "reader/snapshot.h"

namespace ovn_raft {

// `errors` and `rounds` are the cumulative counters kept by the ReadCoordinator; `expected` is
// the operator's --cluster.expected-members and --cluster.expected-hosts. `reuse`: the families
// of an earlier page, emptied and filled again (see FamilyBuilder), so that a page like the
// last one does not allocate its names, help texts and sample vectors again.
std::vector<prometheus::MetricFamily> BuildRaftMetrics(
    const Snapshot& snapshot, const ErrorCounts& errors, std::uint64_t rounds,
    const ExpectedCluster& expected = {}, std::vector<prometheus::MetricFamily> reuse = {});

}  // namespace ovn_raft
