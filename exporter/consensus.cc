#include "consensus.h"

#include <algorithm>

#include "address.h"

namespace ovn_raft {

std::string HostOf(const std::string& address) { return ParseAddress(address).host; }

std::vector<ClusterConsensus> AnalyzeConsensus(const std::vector<MemberReport>& members,
                                               std::optional<int> expected_members) {
  std::map<std::string, std::vector<const MemberReport*>> by_cluster;
  for (const auto& m : members) {
    if (m.up && !m.cluster_id.empty() && !m.server_id.empty())
      by_cluster[m.cluster_id].push_back(&m);
  }
  std::vector<ClusterConsensus> out;
  for (const auto& [cid, reports] : by_cluster) {
    ClusterConsensus c;
    c.cluster_id = cid;
    c.expected_members = expected_members;
    std::map<std::map<std::string, std::string>, std::set<std::string>>
        groups;  // view -> reporters
    std::map<std::string, int> named_by;
    std::map<std::string, std::set<std::string>> ids_by_host, addresses_by_id;
    for (const MemberReport* r : reports) {
      c.reporters.insert(r->server_id);
      groups[r->view].insert(r->server_id);
      if (r->role == "leader") ++c.leaders;
      if (!r->leader.empty() && r->leader != "unknown") c.leader_ids.insert(r->leader);
      for (const auto& [id, address] : r->view) {
        ++named_by[id];
        c.union_members.insert(id);
        ids_by_host[HostOf(address)].insert(id);
        addresses_by_id[id].insert(address);
      }
    }
    c.views = groups.size();
    c.all_agree = c.views == 1;
    std::size_t largest = 0;
    for (const auto& [view, who] : groups) largest = std::max(largest, who.size());
    c.has_majority = largest >= c.reporters.size() / 2 + 1;
    for (const auto& [view, who] : groups) {
      if (!c.has_majority) break;
      auto& side = who.size() == largest ? c.majority_reporters : c.minority_reporters;
      side.insert(who.begin(), who.end());
    }
    for (const auto& [id, n] : named_by) {
      if (!c.reporters.count(id)) c.silent[id] = n;
    }
    for (const auto& [host, ids] : ids_by_host) {
      if (ids.size() > 1) c.host_conflicts[host] = ids;
    }
    for (const auto& [id, addresses] : addresses_by_id) {
      if (addresses.size() > 1) c.address_disagreements[id] = addresses;
    }
    const bool too_many =
        expected_members && static_cast<int>(c.union_members.size()) > *expected_members;
    for (const auto& [id, n] : c.silent) {
      bool shares_host = false;
      for (const auto& address : addresses_by_id[id]) {
        shares_host = shares_host || c.host_conflicts.count(HostOf(address)) > 0;
      }
      if (shares_host || too_many) c.stale_suspects.insert(id);
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace ovn_raft
