#pragma once

// Instant queries against a real Prometheus' HTTP API, for the end-to-end tests.

#include <map>
#include <string>
#include <vector>

#include "base/result.h"

namespace ovn_raft::testing {

struct QuerySample {
  std::map<std::string, std::string> labels;
  double value = 0;
};

// The result vector of `promql` at the current time, or why there is none (Prometheus not up
// yet, or a query it refused: the HTTP status and the start of its answer).
Result<std::vector<QuerySample>, std::string> PrometheusQuery(int port, const std::string& promql);

// The samples of `promql`, or none while Prometheus cannot answer: for the loops that poll it
// until a deadline (what they expect then fails with what they saw).
std::vector<QuerySample> PolledQuery(int port, const std::string& promql);

}  // namespace ovn_raft::testing
