#pragma once

// The Prometheus text format (version 0.0.4) for metric families. prometheus-cpp's
// TextSerializer formats every number through iostreams and printf, which dominated a scrape's
// cost (docs/performance.md). Gauges and counters, the only types FamilyBuilder makes, are
// written here with std::to_chars; families of other types are left out.

#include <string>
#include <vector>

#include "metrics/metric_family.h"

namespace ovn_raft {

std::string TextExposition(const std::vector<prometheus::MetricFamily>& families);

}  // namespace ovn_raft
