#include "report/served_without_raft.h"

namespace ovn_raft {

WithoutRaftFinding DescribeWithoutRaft(const MemberReport& m) {
  const bool relay = m.model == DatabaseModel::kRelay;
  const std::string kind = relay ? "relay database" : "standalone database";
  // Its exporter could not read its server (a timeout, a lost connection): a failure whatever
  // the database is.
  if (!m.error.empty()) {
    return {.line = kind + ", not read: " + m.error,
            .problem = m.source + " cannot read it: " + m.error};
  }
  if (!relay) return {.line = kind + ", no Raft cluster", .problem = std::nullopt};
  if (!m.connected) return {.line = kind + ", its source unknown", .problem = std::nullopt};
  if (*m.connected) return {.line = kind + ", connected to its source", .problem = std::nullopt};
  // ovsdb-server keeps saying connected for a grace period while a relay reconnects, so a
  // relay that says it is not has been cut off for a while: it serves stale data and cannot
  // forward its clients' writes.
  return {.line = kind + ", NOT connected to its source",
          .problem = m.source +
                     " serves it as a relay not connected to its source: stale data, no writes "
                     "forwarded (see the runbook, OVNRaftRelayDisconnected)"};
}

}  // namespace ovn_raft
