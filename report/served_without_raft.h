#pragma once

// What the report says of a database served without Raft: a standalone one (Kube-OVN's single
// mode) or a relay beside a cluster. It is no cluster member, so the cluster analysis leaves it
// out; what it needs is judged on its own. Pure.

#include <optional>
#include <string>

#include "consensus/member_report.h"

namespace ovn_raft {

struct WithoutRaftFinding {
  // "standalone database, no Raft cluster", "relay database, connected to its source", ...
  std::string line;
  // What needs an operator, in the words of the report's "needs attention:" lines; none when
  // the database is served as it should be.
  std::optional<std::string> problem;
};

// For an entry ServedWithoutRaft() says is one.
WithoutRaftFinding DescribeWithoutRaft(const MemberReport& m);

}  // namespace ovn_raft
