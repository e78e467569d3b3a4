#pragma once

// The prometheus-cpp Collectable behind /metrics: on every Collect() it gets a snapshot from the
// ReadCoordinator (which may share or reuse a round) and builds fresh families from it, plus
// build info and process metrics. Collect() never throws.

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <chrono>

#include "expectations.h"
#include "read_coordinator.h"

namespace ovn_raft {

class RaftCollector : public prometheus::Collectable {
 public:
  RaftCollector(ReadCoordinator& coordinator, std::chrono::milliseconds timeout,
                Expectations expected = {})
      : coordinator_(coordinator), timeout_(timeout), expected_(std::move(expected)) {}

  std::vector<prometheus::MetricFamily> Collect() const override { return CollectWithin(timeout_); }
  // As Collect(), with a tighter read deadline (from the scraper's own timeout).
  std::vector<prometheus::MetricFamily> CollectWithin(std::chrono::milliseconds timeout) const;

 private:
  ReadCoordinator& coordinator_;
  std::chrono::milliseconds timeout_;
  Expectations expected_;
};

}  // namespace ovn_raft
