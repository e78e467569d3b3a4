#pragma once

// What the operator expects of every cluster: its size and the hosts its members should run on
// (Kube-OVN passes the latter to ovn-central as NODE_IPS). Exported for the recording rules to
// compare against; the exporter never acts on it.

#include <string>
#include <vector>

namespace ovn_raft {

struct Expectations {
  int members = 0;                 // 0: unset
  std::vector<std::string> hosts;  // IPs (IPv6 without brackets) or DNS names; empty: unset
};

}  // namespace ovn_raft
