#include "consensus/consensus.h"

#include <algorithm>

#include "parsers/address.h"

namespace ovn_raft {

std::string HostOf(const std::string& address) { return ParseAddress(address).host; }

namespace {

// Against the majority view: what `view` lacks, lists in excess, or places elsewhere.
ViewDifferences Compare(const std::map<std::string, std::string>& majority,
                        const std::map<std::string, std::string>& view) {
  ViewDifferences d;
  for (const auto& [id, address] : majority) {
    const auto it = view.find(id);
    if (it == view.end()) {
      d.missing.insert(id);
    } else if (it->second != address) {
      d.moved[id] = {it->second, address};
    }
  }
  for (const auto& [id, address] : view) {
    if (!majority.count(id)) d.extra.insert(id);
  }
  return d;
}

// The suspects among the candidates: all of them, or when the cluster is `excess` (1 to
// kTrimmedExcessMax) larger than expected, those scoring at least the excess-th highest score.
std::vector<std::string> Rank(const std::map<std::string, int>& candidates, int excess) {
  std::vector<std::string> ranked;
  for (const auto& [id, score] : candidates) ranked.push_back(id);
  std::stable_sort(ranked.begin(), ranked.end(), [&](const auto& a, const auto& b) {
    return candidates.at(a) > candidates.at(b);
  });
  if (excess >= 1 && excess <= kTrimmedExcessMax && !ranked.empty()) {
    const int threshold = candidates.at(
        ranked[std::min<std::size_t>(static_cast<std::size_t>(excess), ranked.size()) - 1]);
    ranked.erase(std::remove_if(ranked.begin(), ranked.end(),
                                [&](const auto& id) { return candidates.at(id) < threshold; }),
                 ranked.end());
  }
  return ranked;
}

}  // namespace

std::vector<ClusterConsensus> AnalyzeConsensus(const std::vector<MemberReport>& members,
                                               const ExpectedCluster& expected) {
  const std::optional<int> expected_members = expected.members;
  std::map<std::string, std::vector<const MemberReport*>> by_cluster;
  std::set<std::string> named_hosts;  // of the whole database, for the missing expected hosts
  for (const auto& m : members) {
    if (m.up && !m.cluster_id.empty() && !m.server_id.empty()) {
      by_cluster[m.cluster_id].push_back(&m);
      for (const auto& [id, address] : m.view) named_hosts.insert(HostOf(address));
    }
  }
  std::set<std::string> missing_hosts;
  for (const auto& host : expected.hosts) {
    if (!named_hosts.count(host)) missing_hosts.insert(host);
  }
  std::vector<ClusterConsensus> out;
  for (const auto& [cid, reports] : by_cluster) {
    ClusterConsensus c;
    c.cluster_id = cid;
    c.expected_members = expected_members;
    c.missing_hosts = missing_hosts;
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
    if (c.has_majority) {
      for (const auto& [view, who] : groups) {
        if (who.size() == largest) c.majority_view = view;
      }
      for (const MemberReport* r : reports) {
        c.differences[r->server_id] = Compare(c.majority_view, r->view);
      }
    }
    // Every (ID, address) pair and how many reporters name it, for the expected hosts.
    std::map<std::pair<std::string, std::string>, int> pairs;
    for (const MemberReport* r : reports) {
      for (const auto& [id, address] : r->view) ++pairs[{id, address}];
    }
    std::set<std::string> on_unexpected_host, on_shared_host;
    for (const auto& [pair, n] : pairs) {
      const std::string host = HostOf(pair.second);
      if (!expected.hosts.empty() && !expected.hosts.count(host)) {
        c.unexpected_members[pair] = n;
        c.unexpected_hosts.insert(host);
        on_unexpected_host.insert(pair.first);
      }
      if (c.host_conflicts.count(host)) on_shared_host.insert(pair.first);
    }
    // Scores in tiers, as the rules: host not expected, silent, host claimed by another ID,
    // then fewer reporters naming it.
    for (const auto& [id, n] : named_by) {
      c.suspect_scores[id] = (10 - std::min(n, 10)) + 100 * static_cast<int>(c.silent.count(id)) +
                             50 * static_cast<int>(on_shared_host.count(id)) +
                             1000 * static_cast<int>(on_unexpected_host.count(id));
    }
    const int excess =
        expected_members ? static_cast<int>(c.union_members.size()) - *expected_members : 0;
    std::map<std::string, int> candidates;
    for (const auto& [id, n] : c.silent) {
      if (on_unexpected_host.count(id) || on_shared_host.count(id) || excess > 0) {
        candidates[id] = c.suspect_scores[id];
      }
    }
    c.ranked_suspects = Rank(candidates, excess);
    c.stale_suspects.insert(c.ranked_suspects.begin(), c.ranked_suspects.end());
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace ovn_raft
