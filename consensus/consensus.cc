#include "consensus/consensus.h"

#include <algorithm>

#include "parsers/address.h"

namespace ovn_raft {

std::string HostOf(const std::string& address) { return ParseAddress(address).host; }

namespace {

using Reports = std::vector<const MemberReport*>;
using View = std::map<std::string, std::string>;

// Against the majority view: what `view` lacks, lists in excess, or places elsewhere.
ViewDifferences Compare(const View& majority, const View& view) {
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

// A member in failure mode (an I/O error) keeps the role and leader it had, frozen, while the
// others elect a new leader: neither is a claim.
bool Failed(const MemberReport& r) { return r.status == "failed"; }
bool IsLeader(const MemberReport& r) { return r.role == "leader" && !Failed(r); }
bool InContact(const MemberReport& r) { return r.connected.value_or(false); }

// Who a living member vouches for; see ClusterConsensus::alive. Never whether an exporter
// answers: a member whose exporter is down is as alive as its peers say.
std::set<std::string> Alive(const Reports& reports) {
  std::set<std::string> alive;
  const bool leader_reports = std::any_of(reports.begin(), reports.end(),
                                          [](const MemberReport* r) { return IsLeader(*r); });
  for (const MemberReport* r : reports) {
    if (!IsLeader(*r)) continue;
    alive.insert(r->server_id);
    if (!r->election_timer_ms) continue;
    // Within two election timers: a firewalled peer's TCP connection can look established.
    for (const auto& [id, ago] : r->heard_ms_ago) {
      if (ago < 2 * *r->election_timer_ms) alive.insert(id);
    }
  }
  if (!leader_reports) {
    for (const MemberReport* r : reports) {
      if (!InContact(*r)) continue;
      alive.insert(r->server_id);
      for (const auto& [id, address] : r->view) {
        if (id != r->server_id && r->established.count(id)) alive.insert(id);
      }
    }
  }
  if (std::none_of(reports.begin(), reports.end(),
                   [](const MemberReport* r) { return InContact(*r); })) {
    for (const MemberReport* r : reports) alive.insert(r->server_id);  // a lone survivor
  }
  return alive;
}

// Reporters healthy by their own word that a reporting leader does not hear; see
// ClusterConsensus::unheard.
std::map<std::string, std::uint64_t> Unheard(const Reports& reports) {
  std::map<std::string, std::uint64_t> unheard;
  for (const MemberReport* leader : reports) {
    if (!IsLeader(*leader) || !leader->election_timer_ms) continue;
    for (const MemberReport* r : reports) {
      if (r->status != "cluster_member" || r == leader) continue;
      const auto it = leader->heard_ms_ago.find(r->server_id);
      if (it == leader->heard_ms_ago.end() || it->second < 2 * *leader->election_timer_ms) continue;
      // Restarted after the leader last heard it, and not long ago: rejoining, not unheard
      // (the same window as ovn_raft_cluster_member:unheard:info's memberRejoinSeconds).
      constexpr double kRejoinSeconds = 120;
      if (r->up_for_s && *r->up_for_s < kRejoinSeconds &&
          *r->up_for_s * 1000 < static_cast<double>(it->second)) {
        continue;
      }
      unheard[r->server_id] = it->second;
    }
  }
  return unheard;
}

// The quorum of the view the cluster acts on: the leader's, else the majority's, else the
// largest.
int Quorum(const Reports& reports, const std::set<std::string>& majority_reporters) {
  auto largest = [&](auto take) {
    int q = 0;
    for (const MemberReport* r : reports) {
      if (take(*r) && !r->view.empty()) q = std::max(q, static_cast<int>(r->view.size()) / 2 + 1);
    }
    return q;
  };
  if (const int q = largest(IsLeader)) return q;
  if (const int q = largest(
          [&](const MemberReport& r) { return majority_reporters.count(r.server_id) > 0; })) {
    return q;
  }
  return largest([](const MemberReport&) { return true; });
}

// Candidates ranked for an excess of `excess` members: see ClusterConsensus::stale_suspects.
void Rank(const std::map<std::string, int>& candidates, int excess, ClusterConsensus* c) {
  std::vector<std::string> ranked;
  for (const auto& [id, score] : candidates) ranked.push_back(id);
  std::stable_sort(ranked.begin(), ranked.end(), [&](const auto& a, const auto& b) {
    return candidates.at(a) > candidates.at(b);
  });
  const auto e = static_cast<std::size_t>(excess);
  if (excess >= 1 && excess <= kTrimmedExcessMax && ranked.size() > e) {
    // Only a candidate that beats the next one after the excess is named: a tie at that
    // boundary means the evidence cannot tell the tied IDs apart.
    const int next = candidates.at(ranked[e]);
    std::vector<std::string> above;
    for (const auto& id : ranked) {
      if (candidates.at(id) > next) above.push_back(id);
    }
    if (above.size() < e) {
      for (const auto& id : ranked) {
        if (candidates.at(id) == next) c->undecided.insert(id);
      }
    }
    ranked = std::move(above);
  }
  c->ranked_suspects = ranked;
  c->stale_suspects.insert(ranked.begin(), ranked.end());
}

// Majority, minority and each reporter's differences from the majority view.
void AnalyzeViews(const Reports& reports, ClusterConsensus* c) {
  std::map<View, std::set<std::string>> groups;  // view -> reporters
  for (const MemberReport* r : reports) groups[r->view].insert(r->server_id);
  c->views = groups.size();
  c->all_agree = c->views == 1;
  std::size_t largest = 0;
  for (const auto& [view, who] : groups) largest = std::max(largest, who.size());
  c->has_majority = largest >= c->reporters.size() / 2 + 1;
  if (!c->has_majority) return;
  for (const auto& [view, who] : groups) {
    const bool majority = who.size() == largest;
    auto& side = majority ? c->majority_reporters : c->minority_reporters;
    side.insert(who.begin(), who.end());
    if (majority) c->majority_view = view;
  }
  for (const MemberReport* r : reports) {
    c->differences[r->server_id] = Compare(c->majority_view, r->view);
  }
}

// Stale suspects: scores in tiers as the rules (host not expected, silent, host claimed by
// another ID, then fewer reporters naming it), candidates, ranking.
void FindSuspects(const Reports& reports, const ExpectedCluster& expected,
                  const std::map<std::string, int>& named_by, ClusterConsensus* c) {
  std::map<std::pair<std::string, std::string>, int> pairs;  // (ID, address) -> named by
  for (const MemberReport* r : reports) {
    for (const auto& [id, address] : r->view) ++pairs[{id, address}];
  }
  std::set<std::string> on_unexpected_host, on_shared_host, on_live_shared_host;
  std::set<std::string> live_hosts;
  for (const auto& [pair, n] : pairs) {
    if (c->alive.count(pair.first)) live_hosts.insert(HostOf(pair.second));
  }
  for (const auto& [pair, n] : pairs) {
    const std::string host = HostOf(pair.second);
    if (!expected.hosts.empty() && !expected.ExpectsHost(host)) {
      c->unexpected_members[pair] = n;
      c->unexpected_hosts.insert(host);
      on_unexpected_host.insert(pair.first);
    }
    if (c->host_conflicts.count(host)) {
      on_shared_host.insert(pair.first);
      if (live_hosts.count(host)) on_live_shared_host.insert(pair.first);
    }
  }
  for (const auto& [id, n] : named_by) {
    c->suspect_scores[id] = (10 - std::min(n, 10)) + 100 * static_cast<int>(c->silent.count(id)) +
                            50 * static_cast<int>(on_shared_host.count(id)) +
                            1000 * static_cast<int>(on_unexpected_host.count(id));
  }
  const int excess =
      c->expected_members ? static_cast<int>(c->union_members.size()) - *c->expected_members : 0;
  std::map<std::string, int> candidates;
  for (const auto& [id, n] : c->silent) {
    if (c->alive.count(id)) continue;  // a living member vouches for it: never a suspect
    if (on_unexpected_host.count(id) || on_live_shared_host.count(id) || excess > 0) {
      candidates[id] = c->suspect_scores[id];
    }
  }
  Rank(candidates, excess, c);
}

ClusterConsensus AnalyzeCluster(const std::string& cluster_id, const Reports& reports,
                                const ExpectedCluster& expected) {
  ClusterConsensus c;
  c.cluster_id = cluster_id;
  if (expected.size() > 0) c.expected_members = expected.size();
  std::map<std::string, int> named_by;
  std::map<std::string, std::set<std::string>> ids_by_host, addresses_by_id;
  for (const MemberReport* r : reports) {
    c.reporters.insert(r->server_id);
    if (IsLeader(*r)) ++c.leader_claims;
    if (!r->leader.empty() && r->leader != "unknown" && !Failed(*r)) c.leader_ids.insert(r->leader);
    for (const auto& [id, address] : r->view) {
      ++named_by[id];
      c.union_members.insert(id);
      ids_by_host[HostOf(address)].insert(id);
      addresses_by_id[id].insert(address);
    }
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
  AnalyzeViews(reports, &c);
  c.alive = Alive(reports);
  c.unheard = Unheard(reports);
  c.quorum = Quorum(reports, c.majority_reporters);
  FindSuspects(reports, expected, named_by, &c);
  return c;
}

}  // namespace

QuorumVerdict VerdictOf(const ClusterConsensus& c) {
  const int tolerance = c.failure_tolerance();
  if (tolerance < 0) return QuorumVerdict::kLost;
  return tolerance == 0 ? QuorumVerdict::kAtRisk : QuorumVerdict::kHealthy;
}

const char* QuorumVerdictName(QuorumVerdict v) {
  switch (v) {
    case QuorumVerdict::kHealthy:
      return "healthy";
    case QuorumVerdict::kAtRisk:
      return "at risk";
    case QuorumVerdict::kLost:
      return "quorum lost";
  }
  return "?";
}

std::vector<ClusterConsensus> AnalyzeConsensus(const std::vector<MemberReport>& members,
                                               const ExpectedCluster& expected) {
  std::map<std::string, Reports> by_cluster;
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
    out.push_back(AnalyzeCluster(cid, reports, expected));
    out.back().missing_hosts = missing_hosts;
  }
  return out;
}

}  // namespace ovn_raft
