#include "parsers/cluster_status.h"

namespace ovn_raft {

const char* MemberStatusName(MemberStatus status) {
  switch (status) {
    case MemberStatus::kClusterMember:
      return "cluster_member";
    case MemberStatus::kJoining:
      return "joining";
    case MemberStatus::kLeaving:
      return "leaving";
    case MemberStatus::kLeft:
      return "left";
    case MemberStatus::kFailed:
      return "failed";
    case MemberStatus::kDisconnected:
      return "disconnected";
  }
  return "unknown";
}

const char* RoleName(Role role) {
  switch (role) {
    case Role::kLeader:
      return "leader";
    case Role::kCandidate:
      return "candidate";
    case Role::kFollower:
      return "follower";
  }
  return "unknown";
}

const char* ServerPhaseName(ServerPhase phase) {
  switch (phase) {
    case ServerPhase::kStable:
      return "stable";
    case ServerPhase::kCatchup:
      return "catchup";
    case ServerPhase::kCaughtUp:
      return "caught_up";
    case ServerPhase::kCommitting:
      return "committing";
    case ServerPhase::kRemoving:
      return "removing";
  }
  return "unknown";
}

const char* ElectionReasonName(ElectionReason reason) {
  switch (reason) {
    case ElectionReason::kTimeout:
      return "timeout";
    case ElectionReason::kLeadershipTransfer:
      return "leadership_transfer";
  }
  return "unknown";
}

}  // namespace ovn_raft
