#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "parsers/cluster_status.h"

namespace ovn_raft {

// Parses the value of "Connections:", e.g. "->0000 <-58cd (->fcf5)". Returns nullopt when a
// token is not of the form [(]->ID[)] or [(]<-ID[)].
std::optional<std::vector<Connection>> ParseConnections(std::string_view value);

}  // namespace ovn_raft
