#pragma once

// The report's verdict on one database: what needs an operator, in words, and so whether
// ovn-raft-report exits 0. Pure: computed from the members' reports and their analysis.

#include <string>
#include <vector>

#include "consensus/consensus.h"
#include "consensus/member_report.h"

namespace ovn_raft {

// What a cluster needs looked at: views that disagree, named members that do not report, not
// exactly one leader, another size or other hosts than expected, the quorum lost or at risk
// (but for a cluster of one, as healthy as it can be). Empty: nothing.
std::vector<std::string> ClusterProblems(const ClusterConsensus& c);
bool IsHealthy(const ClusterConsensus& c);  // ClusterProblems(c).empty()

// Every problem of a database: a member its exporter cannot read, several cluster IDs among
// the members, and each cluster's problems (prefixed by its ID when there are several).
std::vector<std::string> DatabaseProblems(const std::vector<MemberReport>& members,
                                          const std::vector<ClusterConsensus>& clusters);

}  // namespace ovn_raft
