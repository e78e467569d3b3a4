#include "report/member_attention.h"

#include <cstdio>
#include <map>
#include <set>

namespace ovn_raft {

std::vector<std::string> NotAlive(const ClusterConsensus& c) {
  std::vector<std::string> out;
  for (const auto& id : c.union_members) {
    if (!c.alive.count(id)) out.push_back(id);
  }
  return out;
}

std::vector<MemberAttention> MembersNeedingAttention(const ClusterConsensus& c,
                                                     const std::vector<MemberReport>& members) {
  std::vector<MemberAttention> out;
  std::map<std::string, const MemberReport*> reporters;
  std::map<std::string, std::string> named_at;  // ID -> an address a view gives it
  for (const auto& m : members) {
    if (!m.up || m.cluster_id != c.cluster_id || m.server_id.empty()) continue;
    reporters[m.server_id] = &m;
    for (const auto& [id, address] : m.view) named_at.emplace(id, address);
  }
  std::set<std::string> ids = c.union_members;
  for (const auto& [id, m] : reporters) ids.insert(id);
  for (const auto& id : ids) {
    MemberAttention a{.id = id, .address = "", .states = {}, .alive = c.alive.count(id) > 0};
    const auto r = reporters.find(id);
    if (r != reporters.end()) {
      const MemberReport& m = *r->second;
      a.address = m.address;
      if (m.status == "failed") a.states.push_back("failed (its log says why)");
      if (m.status == "disconnected") a.states.push_back("disconnected");
      if (m.status != "failed" && m.status != "disconnected" && m.connected == false) {
        a.states.push_back("disconnected (out of contact with a majority)");
      }
      if (m.role == "candidate" && m.status != "failed") {
        a.states.push_back("campaigning" +
                           (m.term ? " (term " + std::to_string(*m.term) + ")" : std::string()));
      }
      if (const auto u = c.unheard.find(id); u != c.unheard.end()) {
        char ago[64];
        std::snprintf(ago, sizeof(ago), "unheard by the leader for %.1f s",
                      static_cast<double>(u->second) / 1000.0);
        a.states.push_back(ago);
      }
    } else {
      const auto at = named_at.find(id);
      if (at != named_at.end()) a.address = at->second;
      a.states.push_back("not reporting (its exporter was not read)");
    }
    if (!a.alive && !c.unheard.count(id)) a.states.push_back("no living member hears it");
    if (!a.states.empty()) out.push_back(std::move(a));
  }
  return out;
}

}  // namespace ovn_raft
