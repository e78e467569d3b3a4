#pragma once

// Collects samples into prometheus-cpp MetricFamily values, one family per name, in the order
// names are first used. Families without samples are never emitted.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "metrics/metric_family.h"

namespace ovn_raft {

using Labels = std::vector<prometheus::ClientMetric::Label>;

class FamilyBuilder {
 public:
  void Gauge(std::string_view name, std::string_view help, Labels labels, double value);
  void Counter(std::string_view name, std::string_view help, Labels labels, double value);
  std::vector<prometheus::MetricFamily> Take() { return std::move(families_); }

 private:
  prometheus::ClientMetric& Add(std::string_view name, std::string_view help,
                                prometheus::MetricType type, Labels labels);
  std::vector<prometheus::MetricFamily> families_;
  std::map<std::string, std::size_t, std::less<>> index_;  // looked up without a copy
  std::size_t last_ = 0;                                   // the family of the last sample
};

}  // namespace ovn_raft
