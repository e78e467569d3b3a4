#pragma once

// The cross-member analysis of one database's members, computed from their /status reports:
// the reference the recording rules in alerts/ must agree with (tests/integration) and what
// ovn-raft-report prints. Pure. Same definitions as the rules: a cluster is one cluster ID;
// members still joining (no cluster ID) belong to none.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "consensus/expected_cluster.h"
#include "consensus/member_report.h"

namespace ovn_raft {

// One reporter's differences from the majority view.
struct ViewDifferences {
  std::set<std::string> missing;  // IDs the majority lists and this view lacks
  std::set<std::string> extra;    // IDs this view lists and the majority does not
  std::map<std::string, std::pair<std::string, std::string>> moved;  // ID -> (this, majority)
  bool empty() const { return missing.empty() && extra.empty() && moved.empty(); }
};

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
  // Against the expected hosts (when known): IDs on a host not expected, (ID, address) -> named
  // by; expected hosts that no view of the database names (any cluster of it).
  std::map<std::pair<std::string, std::string>, int> unexpected_members;  // (ID, address)
  std::set<std::string> unexpected_hosts, missing_hosts;
  std::map<std::string, std::string> majority_view;    // ID -> address, when has_majority
  std::map<std::string, ViewDifferences> differences;  // reporter -> its differences (majority)
  std::map<std::string, int> suspect_scores;           // every named ID -> its score
  // Members a living member vouches for (as ovn_raft_cluster_member:alive:bool): where a leader
  // reports, the leaders and the members a leader heard from within two election timers;
  // else the members in contact with a majority and the peers they hold established Raft
  // connections with; with no contact anywhere, each reporter itself.
  std::set<std::string> alive;
  // Reporters that call themselves cluster members (their own status: healthy) while the
  // leader last heard from them two election timers ago or more, with how long ago in ms (as
  // ovn_raft_cluster_member:leader_unheard:info, reason not_heard): a full or read-only disk,
  // a one-way cut, a stuck process. A snapshot cannot tell a log that does not catch up.
  std::map<std::string, std::uint64_t> unheard;
  // Votes needed in the view the cluster acts on: the leader's, else the majority view's,
  // else the largest. 0 when no reporter has a view.
  int quorum = 0;
  int failure_tolerance() const { return static_cast<int>(alive.size()) - quorum; }
  // Silent IDs no living member vouches for, with evidence of staleness (host unexpected, host
  // held by a live ID, cluster larger than expected). When the cluster is `excess` (1 to
  // kTrimmedExcessMax) larger than expected, only those scoring above the next candidate are
  // suspects, at most `excess`; candidates tied at that boundary are `undecided` instead.
  std::set<std::string> stale_suspects;
  std::vector<std::string> ranked_suspects;  // stale_suspects, most suspect first
  std::set<std::string> undecided;           // tied candidates: no kick is advised for them
  int leader_claims = 0;                     // reporters in the leader role
  std::set<std::string> leader_ids;          // leaders the members know (claimed or followed)
};

// Whether a cluster keeps its quorum: healthy while it tolerates a further failure, at risk
// when one more failure loses it, lost when fewer members are alive than the quorum.
enum class QuorumVerdict { kHealthy, kAtRisk, kLost };
QuorumVerdict VerdictOf(const ClusterConsensus& c);
const char* QuorumVerdictName(QuorumVerdict v);

// One result per cluster ID among `members` (all of one database).
std::vector<ClusterConsensus> AnalyzeConsensus(const std::vector<MemberReport>& members,
                                               const ExpectedCluster& expected);

// Suspects are named one by one for clusters up to this much larger than expected (the rules'
// minoritySlots); beyond, every candidate is a suspect.
constexpr int kTrimmedExcessMax = 3;

// Host of an address: "tcp:10.0.0.1:6643" -> "10.0.0.1", "ssl:[fd00::1]:6643" -> "fd00::1".
std::string HostOf(const std::string& address);

}  // namespace ovn_raft
