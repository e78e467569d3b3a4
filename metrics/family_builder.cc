#include "metrics/family_builder.h"

namespace ovn_raft {

// Samples come database by database, each in the order the first one created the families:
// the family of the last sample, then the one after it, answer nearly every lookup. A scan
// finds the rest; an index would cost two allocations per family on every scrape.
FamilyBuilder::FamilyBuilder(std::size_t expected_families,
                             std::vector<prometheus::MetricFamily> reuse)
    : families_(std::move(reuse)) {
  for (auto& f : families_) f.metric.clear();  // keeps the vector's memory
  families_.reserve(expected_families);
}

std::size_t FamilyBuilder::Find(std::string_view name) const {
  const std::size_t n = used_;
  if (last_ < n && families_[last_].name == name) return last_;
  if (last_ + 1 < n && families_[last_ + 1].name == name) return last_ + 1;
  for (std::size_t i = 0; i < n; ++i) {
    if (families_[i].name == name) return i;
  }
  return n;
}

prometheus::ClientMetric& FamilyBuilder::Add(std::string_view name, std::string_view help,
                                             prometheus::MetricType type, Labels labels) {
  last_ = Find(name);
  if (last_ == used_) {
    if (used_ == families_.size()) {
      families_.emplace_back().metric.reserve(2);  // most have one sample per database, two read
    }
    // A handed-back family, most often the same one as on the last page: assigning the same
    // text again allocates nothing.
    prometheus::MetricFamily& family = families_[used_++];
    family.name.assign(name);
    family.help.assign(help);
    family.type = type;
  }
  auto& metrics = families_[last_].metric;
  metrics.emplace_back().label = std::move(labels);
  return metrics.back();
}

std::vector<prometheus::MetricFamily> FamilyBuilder::Take() {
  families_.resize(used_);  // handed-back families this page had no sample for
  used_ = last_ = 0;
  return std::move(families_);
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
