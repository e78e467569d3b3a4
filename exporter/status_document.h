#pragma once

// The /status document, read by ovn-raft-report: every database's reading, with the parsed
// status in the parse-status form (parsers/status_json.h).

#include <string>

#include "reader/snapshot.h"

namespace ovn_raft {

std::string SnapshotToJson(const Snapshot& snapshot);

}  // namespace ovn_raft
