#include "consensus/database_health.h"

namespace ovn_raft {

std::vector<std::string> ClusterProblems(const ClusterConsensus& c) {
  std::vector<std::string> out;
  const auto size = static_cast<int>(c.union_members.size());
  if (!c.all_agree) out.push_back("the members' views of the membership disagree");
  if (!c.silent.empty())
    out.push_back(std::to_string(c.silent.size()) + " named member(s) do not report");
  if (!c.unheard.empty()) {
    out.push_back(std::to_string(c.unheard.size()) +
                  " member(s) call themselves healthy but the leader does not hear them");
  }
  if (!c.host_conflicts.empty()) out.push_back("a host is claimed by several member IDs");
  if (!c.unexpected_members.empty()) out.push_back("a member runs on a host not expected");
  if (!c.missing_hosts.empty()) out.push_back("an expected host has no member");
  if (c.leader_claims != 1) {
    out.push_back(std::to_string(c.leader_claims) + " members claim to lead (want 1)");
  }
  if (c.leader_ids.size() != 1) {
    out.push_back(std::to_string(c.leader_ids.size()) + " leaders known (want 1)");
  }
  if (c.expected_members && size != *c.expected_members) {
    out.push_back(std::to_string(size) + " members, expected " +
                  std::to_string(*c.expected_members));
  }
  const QuorumVerdict verdict = VerdictOf(c);
  if (verdict == QuorumVerdict::kLost) out.push_back("quorum lost");
  if (verdict == QuorumVerdict::kAtRisk && size != 1) {
    out.push_back("quorum at risk: one more failure loses it");
  }
  return out;
}

bool IsHealthy(const ClusterConsensus& c) { return ClusterProblems(c).empty(); }

std::vector<std::string> DatabaseProblems(const std::vector<MemberReport>& members,
                                          const std::vector<ClusterConsensus>& clusters) {
  std::vector<std::string> out;
  for (const auto& m : members) {
    if (!m.up) out.push_back(m.source + " cannot read it: " + (m.error.empty() ? "down" : m.error));
  }
  if (clusters.size() > 1) {
    out.push_back(std::to_string(clusters.size()) + " cluster IDs among the members");
  }
  for (const auto& c : clusters) {
    for (auto& p : ClusterProblems(c)) {
      out.push_back(clusters.size() > 1 ? "cluster " + c.cluster_id + ": " + p : std::move(p));
    }
  }
  return out;
}

}  // namespace ovn_raft
