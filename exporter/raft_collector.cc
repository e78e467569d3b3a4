#include "raft_collector.h"

#include <exception>

#include "family_builder.h"
#include "log.h"
#include "process_metrics.h"
#include "raft_metrics.h"

namespace ovn_raft {

std::vector<prometheus::MetricFamily> RaftCollector::CollectWithin(
    std::chrono::milliseconds timeout) const {
  std::vector<prometheus::MetricFamily> families;
  try {
    const auto snapshot = coordinator_.Get(timeout);
    families = BuildRaftMetrics(*snapshot, coordinator_.errors(), coordinator_.rounds(), expected_);
  } catch (const std::exception& e) {
    // An exception escaping Collect() would abort the process; report and serve the rest.
    Log(LogLevel::kError, "collect failed", {{"error", e.what()}});
    families.clear();
  }
  FamilyBuilder b;
  b.Gauge("ovn_raft_exporter_build_info", "Version of ovn-raft-exporter; always 1.",
          {{"version", OVN_RAFT_VERSION}, {"revision", OVN_RAFT_REVISION}}, 1);
  for (auto& f : b.Take()) families.push_back(std::move(f));
  try {
    for (auto& f : CollectProcessMetrics()) families.push_back(std::move(f));
  } catch (const std::exception& e) {
    Log(LogLevel::kWarn, "process metrics failed", {{"error", e.what()}});
  }
  return families;
}

}  // namespace ovn_raft
