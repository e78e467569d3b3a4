#include "family_builder.h"

namespace ovn_raft {

prometheus::ClientMetric& FamilyBuilder::Add(const std::string& name, const std::string& help,
                                             prometheus::MetricType type, Labels labels) {
  auto [it, inserted] = index_.try_emplace(name, families_.size());
  if (inserted) {
    prometheus::MetricFamily family;
    family.name = name;
    family.help = help;
    family.type = type;
    families_.push_back(std::move(family));
  }
  auto& metrics = families_[it->second].metric;
  metrics.emplace_back();
  metrics.back().label = std::move(labels);
  return metrics.back();
}

void FamilyBuilder::Gauge(const std::string& name, const std::string& help, Labels labels,
                          double value) {
  Add(name, help, prometheus::MetricType::Gauge, std::move(labels)).gauge.value = value;
}

void FamilyBuilder::Counter(const std::string& name, const std::string& help, Labels labels,
                            double value) {
  Add(name, help, prometheus::MetricType::Counter, std::move(labels)).counter.value = value;
}

}  // namespace ovn_raft
