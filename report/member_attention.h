#pragma once

// The members of one cluster that need an operator, each with what it is, for the report's
// attention lines: one line per member, whatever table row or count also shows it. Pure.

#include <string>
#include <vector>

#include "consensus/consensus.h"
#include "consensus/member_report.h"

namespace ovn_raft {

struct MemberAttention {
  std::string id, address;          // address "" when no view names it
  std::vector<std::string> states;  // "failed", "disconnected", "campaigning", ...
  bool alive = false;               // a living member vouches for it
};

// Every member of `c` (its reporters among `members`, and the members their views name) that
// is failed, disconnected (its status, or out of contact with a majority), campaigning (a
// candidate), unheard by the leader, not reporting, or that no living member vouches for.
std::vector<MemberAttention> MembersNeedingAttention(const ClusterConsensus& c,
                                                     const std::vector<MemberReport>& members);

// The members of `c` no living member vouches for: who puts the quorum at risk.
std::vector<std::string> NotAlive(const ClusterConsensus& c);

}  // namespace ovn_raft
