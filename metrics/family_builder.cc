#include "metrics/family_builder.h"

namespace ovn_raft {

prometheus::ClientMetric& FamilyBuilder::Add(std::string_view name, std::string_view help,
                                             prometheus::MetricType type, Labels labels) {
  // Samples of one family mostly come in a row (one per member): no lookup for those.
  if (last_ >= families_.size() || families_[last_].name != name) {
    auto it = index_.find(name);
    if (it == index_.end()) {
      it = index_.emplace(std::string(name), families_.size()).first;
      prometheus::MetricFamily family;
      family.name = std::string(name);
      family.help = std::string(help);
      family.type = type;
      family.metric.reserve(2);  // most families have one sample per database, and two are read
      families_.push_back(std::move(family));
    }
    last_ = it->second;
  }
  auto& metrics = families_[last_].metric;
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
