#pragma once

// The cross-member analysis of one database's members, computed from their /status reports:
// the reference the recording rules in alerts/ must agree with (tests/integration) and what
// ovn-raft-report prints. Pure. Same definitions as the rules: a cluster is one cluster ID;
// members still joining (no cluster ID) belong to none.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "member_report.h"

namespace ovn_raft {

struct ClusterConsensus {
  std::string cluster_id;
  std::set<std::string> reporters;  // server IDs whose status was read
  std::size_t views = 0;            // distinct membership views among the reporters
  bool all_agree = false;
  bool has_majority = false;  // a view held by floor(reporters/2)+1 reporters
  std::set<std::string> majority_reporters, minority_reporters;
  std::set<std::string> union_members;  // every ID any view names
  std::map<std::string, int> silent;    // named but not reporting -> named by
  std::map<std::string, std::set<std::string>> host_conflicts;         // host -> IDs (> 1)
  std::map<std::string, std::set<std::string>> address_disagreements;  // ID -> addresses (> 1)
  std::optional<int> expected_members;
  std::set<std::string> stale_suspects;  // silent, and host conflict or more than expected
  int leaders = 0;                       // reporters in the leader role
  std::set<std::string> leader_ids;      // leaders the reporters follow
};

// One result per cluster ID among `members` (all of one database).
std::vector<ClusterConsensus> AnalyzeConsensus(const std::vector<MemberReport>& members,
                                               std::optional<int> expected_members);

// Host of an address: "tcp:10.0.0.1:6643" -> "10.0.0.1", "ssl:[fd00::1]:6643" -> "fd00::1".
std::string HostOf(const std::string& address);

}  // namespace ovn_raft
