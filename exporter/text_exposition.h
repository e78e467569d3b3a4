#pragma once

// The Prometheus text format (version 0.0.4) for metric families. prometheus-cpp's
// TextSerializer formats every number through iostreams and printf; measured with callgrind it
// was two thirds of a scrape's instructions. Gauges, counters and untyped samples are written
// here with std::to_chars; other types fall back to TextSerializer.

#include <prometheus/metric_family.h>

#include <string>
#include <vector>

namespace ovn_raft {

std::string TextExposition(const std::vector<prometheus::MetricFamily>& families);

}  // namespace ovn_raft
