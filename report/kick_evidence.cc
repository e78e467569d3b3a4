#include "report/kick_evidence.h"

#include <cstddef>
#include <map>

namespace ovn_raft {

std::optional<std::string> WhyNoKick(const std::vector<MemberReport>& members,
                                     const std::string& cluster_id, bool majority_cluster,
                                     const std::string& id) {
  if (!majority_cluster) return "no cluster ID is read by more than half of the URLs";
  std::map<std::string, std::size_t> named;  // leader -> reporters that follow it
  std::size_t knowing = 0;
  for (const auto& m : members) {
    if (!m.up || m.cluster_id != cluster_id || m.status == "failed") continue;
    if (m.leader.empty() || m.leader == "unknown") continue;
    ++named[m.leader];
    ++knowing;
  }
  std::string leader;
  for (const auto& [l, n] : named) {
    if (2 * n > knowing) leader = l;
  }
  if (leader.empty()) return "its members do not agree on a leader";
  const MemberReport* own = nullptr;
  for (const auto& m : members) {
    if (m.up && m.cluster_id == cluster_id && m.server_id == leader) own = &m;
  }
  if (own == nullptr) return "the leader " + leader + "'s own exporter was not read";
  if (own->role != "leader" || own->status == "failed") {
    return "the leader " + leader + "'s own exporter does not read a leader";
  }
  if (!own->view.count(id)) return "the leader " + leader + " does not list it";
  const auto heard = own->heard_ms_ago.find(id);
  if (heard == own->heard_ms_ago.end() || !own->election_timer_ms) {
    return "the leader " + leader + " does not say when it last heard from it";
  }
  if (heard->second < 2 * *own->election_timer_ms) {
    return "the leader " + leader + " heard from it " + std::to_string(heard->second) + " ms ago";
  }
  return std::nullopt;
}

}  // namespace ovn_raft
