#pragma once

// Instant queries against a real Prometheus' HTTP API, for the end-to-end tests.

#include <map>
#include <string>
#include <vector>

namespace ovn_raft::testing {

struct QuerySample {
  std::map<std::string, std::string> labels;
  double value = 0;
};

// The result vector of `promql` at the current time; empty on errors (and `error` set).
std::vector<QuerySample> PrometheusQuery(int port, const std::string& promql,
                                         std::string* error = nullptr);

}  // namespace ovn_raft::testing
