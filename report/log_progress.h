#pragma once

// Whose log does not sync, from what a cluster's leader says of every member's log (its
// match_index, its own entry included: how far its own disk has written) over a few readings
// of its exporter a moment apart. The same criteria as the rules (mixin/rules.libsonnet), over
// seconds instead of minutes:
//  - not catching up (as ovn_raft_cluster_member:leader_unheard:info, reason not_catching_up):
//    behind the log's end at every reading, and its match index never moved. For the leader
//    itself: its own disk completes no write while its followers' do;
//  - a slow leader (as OVNRaftLeaderSlow): its cluster has committed entries its own log does
//    not hold yet (its commit index above its own match index, by a median of at least
//    kSlowLeaderLagEntries): a majority of followers writes an entry and answers sooner than
//    its own disk syncs it, where a healthy leader writes before it sends;
//  - a slow follower (as OVNRaftMemberSlow): its median lag behind the log's end is at least
//    kSlowLagEntries and more than kSlowPeerFactor times the fastest other follower's.
// Pure.

#include <cstdint>
#include <string>
#include <vector>

#include "consensus/member_report.h"

namespace ovn_raft {

// The rules' slowMemberLagEntries for a leader, whose commit lag is none when it is healthy.
// A follower's floor is one entry above the rules': a few readings, not a minute of samples,
// and a median of one entry is a write caught in flight. The rules' slowMemberPeerFactor.
constexpr std::uint64_t kSlowLeaderLagEntries = 1;
constexpr std::uint64_t kSlowLagEntries = 2;
constexpr std::uint64_t kSlowPeerFactor = 3;
// Readings needed for a verdict: fewer say nothing of progress.
constexpr std::size_t kMinReadings = 3;

struct LogFinding {
  enum class Kind { kNotCatchingUp, kSlow };
  Kind kind = Kind::kSlow;
  std::string id;
  bool leads = false;  // the leader itself: its own disk
  // Entries behind: the log's end at the last reading (not catching up), the median behind
  // the log's end (a slow follower) or behind the commit index (a slow leader).
  std::uint64_t lag = 0;
  std::uint64_t match = 0;     // its match index at the last reading
  std::uint64_t peer_lag = 0;  // slow: the fastest other member's median lag
  std::size_t readings = 0;    // readings the verdict rests on
  double seconds = 0;          // the time they span, by the exporter's clock (0: unknown)
};

// Whether one reading of a leader shows any member behind the log's end: only then is a
// second look worth its wait.
bool AnyLag(const MemberReport& leader);

// The findings from `readings`, successive readings of one leader's exporter for one database
// (the first one that of the report); readings of another member, another term, a
// non-leader, or a repeat of an earlier reading (same taken_at) are left out.
std::vector<LogFinding> LogProgress(const std::vector<MemberReport>& readings);

}  // namespace ovn_raft
