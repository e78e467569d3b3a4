#pragma once

// What one member's "Servers:" list says about the cluster, computed from that list alone.
// Pure. Cross-member comparisons are PromQL's job (alerts/), never this exporter's.

#include <cstddef>
#include <string>

#include "parsers/cluster_status.h"

namespace ovn_raft {

struct MembershipView {
  std::size_t members = 0;
  std::size_t quorum_size = 0;  // floor(n/2)+1, 0 for an empty view
  // Stable across members: FNV-1a 64 of the sorted "ID=ADDRESS" pairs, 16 hex digits. Equal
  // views give equal hashes on every member.
  std::string hash;
  std::size_t duplicate_hosts = 0;      // hosts (IP or name) claimed by more than one member ID
  std::size_t duplicate_addresses = 0;  // exact addresses claimed by more than one member ID
  std::size_t duplicate_short_ids = 0;  // short IDs listed more than once
  bool self_in_view = false;            // this server appears in its own list
  bool self_address_conflict = false;   // another member ID claims this server's own address
};

MembershipView AnalyzeMembership(const ClusterStatus& status);

}  // namespace ovn_raft
