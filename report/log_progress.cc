#include "report/log_progress.h"

#include <algorithm>
#include <map>

namespace ovn_raft {
namespace {

bool Leads(const MemberReport& r) { return r.up && r.role == "leader" && r.status != "failed"; }

// Entries `id` is behind the end of the leader's log at reading `r`; nullopt when unknown.
std::optional<std::uint64_t> Lag(const MemberReport& r, const std::string& id) {
  const auto m = r.match_index.find(id);
  if (m == r.match_index.end() || !r.log_next_index || *r.log_next_index == 0) return std::nullopt;
  const std::uint64_t last = *r.log_next_index - 1;
  return last > m->second ? last - m->second : 0;
}

// Entries the leader's cluster has committed that its own log does not hold yet, at `r`.
std::optional<std::uint64_t> CommitLag(const MemberReport& r) {
  const auto own = r.match_index.find(r.server_id);
  if (own == r.match_index.end() || !r.log_next_index || !r.entries_not_committed ||
      *r.log_next_index < 1 + *r.entries_not_committed) {
    return std::nullopt;
  }
  const std::uint64_t commit = *r.log_next_index - 1 - *r.entries_not_committed;
  return commit > own->second ? commit - own->second : 0;
}

std::uint64_t Median(std::vector<std::uint64_t> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

bool AnyLag(const MemberReport& leader) {
  if (!Leads(leader)) return false;
  for (const auto& [id, match] : leader.match_index) {
    if (Lag(leader, id).value_or(0) > 0) return true;
  }
  return false;
}

std::vector<LogFinding> LogProgress(const std::vector<MemberReport>& readings) {
  std::vector<const MemberReport*> used;
  for (const auto& r : readings) {
    if (!Leads(r)) continue;
    if (!used.empty()) {
      const MemberReport& first = *used.front();
      if (r.server_id != first.server_id || r.cluster_id != first.cluster_id ||
          r.term != first.term) {
        continue;
      }
      if (r.taken_at && used.back()->taken_at && *r.taken_at <= *used.back()->taken_at) continue;
    }
    used.push_back(&r);
  }
  std::vector<LogFinding> out;
  if (used.size() < kMinReadings) return out;
  const MemberReport& first = *used.front();
  const MemberReport& last = *used.back();
  const double seconds =
      first.taken_at && last.taken_at ? std::max(0.0, *last.taken_at - *first.taken_at) : 0;
  // Every member's lag at every reading, for the members every reading lists.
  std::map<std::string, std::vector<std::uint64_t>> lags;
  for (const auto& [id, match] : last.match_index) {
    std::vector<std::uint64_t> v;
    for (const MemberReport* r : used) {
      if (const auto lag = Lag(*r, id)) v.push_back(*lag);
    }
    if (v.size() == used.size()) lags[id] = std::move(v);
  }
  for (const auto& [id, v] : lags) {
    LogFinding f{.kind = LogFinding::Kind::kNotCatchingUp,
                 .id = id,
                 .leads = id == first.server_id,
                 .lag = v.back(),
                 .match = last.match_index.at(id),
                 .peer_lag = 0,
                 .readings = used.size(),
                 .seconds = seconds};
    const bool behind = std::all_of(v.begin(), v.end(), [](std::uint64_t l) { return l > 0; });
    const bool still = std::all_of(used.begin(), used.end(), [&](const MemberReport* r) {
      return r->match_index.at(f.id) == f.match;
    });
    if (behind && still) {
      out.push_back(f);
      continue;
    }
    f.kind = LogFinding::Kind::kSlow;
    if (f.leads) {
      std::vector<std::uint64_t> commit;
      for (const MemberReport* r : used) {
        if (const auto lag = CommitLag(*r)) commit.push_back(*lag);
      }
      if (commit.size() == used.size()) {
        f.lag = Median(commit);
        if (f.lag >= kSlowLeaderLagEntries) out.push_back(f);
      }
      continue;
    }
    f.lag = Median(v);
    bool peers = false;
    std::uint64_t fastest = 0;
    for (const auto& [other, ov] : lags) {
      if (other == id || other == first.server_id) continue;
      const std::uint64_t m = Median(ov);
      fastest = peers ? std::min(fastest, m) : m;
      peers = true;
    }
    f.peer_lag = fastest;
    if (peers && f.lag >= kSlowLagEntries && f.lag > kSlowPeerFactor * fastest) out.push_back(f);
  }
  return out;
}

}  // namespace ovn_raft
