#include "metrics/family_builder.h"

namespace ovn_raft {

prometheus::ClientMetric& FamilyBuilder::Add(std::string_view name, std::string_view help,
                                             prometheus::MetricType type, Labels labels) {
  auto it = index_.find(name);
  if (it == index_.end()) {
    it = index_.emplace(std::string(name), families_.size()).first;
    prometheus::MetricFamily family;
    family.name = std::string(name);
    family.help = std::string(help);
    family.type = type;
    families_.push_back(std::move(family));
  }
  auto& metrics = families_[it->second].metric;
  metrics.emplace_back();
  metrics.back().label = std::move(labels);
  return metrics.back();
}

void FamilyBuilder::Gauge(std::string_view name, std::string_view help, Labels labels,
                          double value) {
  Add(name, help, prometheus::MetricType::Gauge, std::move(labels)).gauge.value = value;
}

void FamilyBuilder::Counter(std::string_view name, std::string_view help, Labels labels,
                            double value) {
  Add(name, help, prometheus::MetricType::Counter, std::move(labels)).counter.value = value;
}

}  // namespace ovn_raft
