#pragma once

// --cluster.expected-members and --cluster.expected-hosts, declared once for both programs
// (the exporter exports them, the report checks against them).

#include <optional>
#include <string>
#include <vector>

#include "cli/flag_table.h"
#include "consensus/expected_cluster.h"

namespace ovn_raft {

// The error, if any.
std::optional<std::string> SetExpectedMembers(ExpectedCluster& expected, const std::string& value);
std::optional<std::string> SetExpectedHosts(ExpectedCluster& expected, const std::string& value);

// The two flags, setting the ExpectedCluster member `field` of a program's settings.
template <typename T>
std::vector<Flag<T>> ExpectedClusterFlags(ExpectedCluster T::*field) {
  return {
      {.spec = {.name = "cluster.expected-members",
                .help = "Members each cluster should have, e.g. the ovn-central replicas: the "
                        "too-many and too-few checks compare against it.",
                .default_text = "unset"},
       .set = [field](T& t, const std::string& v) { return SetExpectedMembers(t.*field, v); }},
      {.spec = {.name = "cluster.expected-hosts",
                .help = "Hosts the members should run on, comma- or space-separated IPs or DNS "
                        "names (Kube-OVN's NODE_IPS); the expected size when "
                        "--cluster.expected-members is unset.",
                .default_text = "unset"},
       .set = [field](T& t, const std::string& v) { return SetExpectedHosts(t.*field, v); }},
  };
}

}  // namespace ovn_raft
