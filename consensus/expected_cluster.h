#pragma once

// What the operator expects of every cluster: its size and the hosts its members should run on
// (Kube-OVN passes the latter to ovn-central as NODE_IPS). The exporter exports it for the
// recording rules to compare against; the report's analysis compares against it itself. Neither
// acts on it. Set by the flags of cli/expected_cluster_flags.h.

#include <algorithm>
#include <string>
#include <vector>

namespace ovn_raft {

struct ExpectedCluster {
  int members = 0;                 // 0: unset
  std::vector<std::string> hosts;  // sorted, unique, IPv6 without brackets; empty: unknown

  // The size to check: `members`, or else as many as the hosts named; 0: unknown.
  int size() const { return members > 0 ? members : static_cast<int>(hosts.size()); }
  bool ExpectsHost(const std::string& host) const {
    return std::binary_search(hosts.begin(), hosts.end(), host);
  }
};

}  // namespace ovn_raft
