#pragma once

// The one line of ovn-raft-report's output that changes a cluster: the `cluster/kick` the
// runbook tells operators to run. Every part of it comes from the network (a member's /status),
// so it is printed only when every part is what it should be; otherwise the report says why it
// prints none. Pure.

#include <string>

#include "base/result.h"

namespace ovn_raft {

// `ovs-appctl -t CTL cluster/kick DB SERVER_ID`, or why it cannot be advised:
//  - SERVER_ID: hex digits (a short ID as cluster/status prints it) or a UUID;
//  - DB: one of the OVN databases (OVN_Northbound, OVN_Southbound, OVN_IC_Northbound,
//    OVN_IC_Southbound);
//  - CTL: an absolute path; printed bare when it holds only [A-Za-z0-9/._+:@,=-], single-quoted
//    for the shell when it holds other printable ASCII (no backslash), refused otherwise.
Result<std::string, std::string> KickCommand(const std::string& ctl, const std::string& db,
                                             const std::string& server_id);

}  // namespace ovn_raft
