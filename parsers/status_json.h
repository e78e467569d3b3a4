#pragma once

#include <string>

#include "parsers/cluster_status.h"

namespace ovn_raft {

// Renders a parsed status as JSON. The keys are a stable, documented interface
// (docs/status-json.md): fields absent from the status are absent from the JSON.
std::string ClusterStatusToJson(const ClusterStatus& status, bool pretty = true);

}  // namespace ovn_raft
