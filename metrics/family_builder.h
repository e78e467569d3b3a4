#pragma once

// Collects samples into prometheus-cpp MetricFamily values, one family per name, in the order
// names are first used. Families without samples are never emitted. The families of an earlier
// page can be handed back: their names, help texts and sample vectors keep their memory, and a
// page like the last one then allocates little more than its labels.

#include <string>
#include <string_view>
#include <vector>

#include "metrics/metric_family.h"

namespace ovn_raft {

using Labels = std::vector<prometheus::ClientMetric::Label>;

class FamilyBuilder {
 public:
  // Room for the families expected, so that adding one never moves the others.
  explicit FamilyBuilder(std::size_t expected_families = 0,
                         std::vector<prometheus::MetricFamily> reuse = {});
  void Gauge(std::string_view name, std::string_view help, Labels labels, double value);
  void Counter(std::string_view name, std::string_view help, Labels labels, double value);
  std::vector<prometheus::MetricFamily> Take();

 private:
  prometheus::ClientMetric& Add(std::string_view name, std::string_view help,
                                prometheus::MetricType type, Labels labels);
  // The family named `name`, or used_ when there is none yet.
  std::size_t Find(std::string_view name) const;
  // Families [0, used_) are this page's; the rest are handed-back ones not yet reused.
  std::vector<prometheus::MetricFamily> families_;
  std::size_t used_ = 0;
  std::size_t last_ = 0;  // the family of the last sample
};

}  // namespace ovn_raft
