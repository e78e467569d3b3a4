#pragma once

// A small reader of the Prometheus text format for assertions: tests look samples up by name
// and a subset of labels, whether the text came from a live /metrics or a serializer.

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ovn_raft::testing {

struct Sample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};

class Exposition {
 public:
  explicit Exposition(const std::string& text);
  // Samples named `name` whose labels include every pair of `subset`.
  std::vector<Sample> All(const std::string& name,
                          const std::map<std::string, std::string>& subset = {}) const;
  // The one matching sample's value; nullopt when none (several match: the first).
  std::optional<double> Value(const std::string& name,
                              const std::map<std::string, std::string>& subset = {}) const;
  // The label `label` of the one matching sample, "" when none.
  std::string Label(const std::string& name, const std::string& label,
                    const std::map<std::string, std::string>& subset = {}) const;
  std::size_t size() const { return samples_.size(); }

 private:
  std::vector<Sample> samples_;
};

}  // namespace ovn_raft::testing
