#pragma once

// The standard process_* metrics of Prometheus client libraries, read from /proc (prometheus-cpp
// has none), and the exporter's wall clock. Reading is the I/O edge; ParseProcStat is pure.

#include <optional>
#include <string_view>
#include <vector>

#include "metrics/metric_family.h"

namespace ovn_raft {

struct ProcStat {
  double cpu_seconds = 0;
  double start_time_seconds = 0;  // Unix time
  double virtual_memory_bytes = 0;
  double resident_memory_bytes = 0;
};

// `stat` is /proc/self/stat; `boot_time` the btime of /proc/stat.
std::optional<ProcStat> ParseProcStat(std::string_view stat, long ticks_per_second, long page_size,
                                      double boot_time);

// Fresh families with ovn_raft_exporter_time_seconds (the wall clock now, as node_exporter's
// node_time_seconds: rules take ages of the page's timestamps against it, so that a clock set
// wrong or stepped cancels out), process_cpu_seconds_total, process_resident_memory_bytes,
// process_virtual_memory_bytes, process_start_time_seconds, process_open_fds, process_max_fds.
std::vector<prometheus::MetricFamily> CollectProcessMetrics();

}  // namespace ovn_raft
