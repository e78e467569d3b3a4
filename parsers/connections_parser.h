#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "parsers/cluster_status.h"

namespace ovn_raft {

// Parses the value of "Connections:", e.g. "->0000 <-58cd (->fcf5)". Returns nullopt when a
// token is not of the form [(]->ID[)] or [(]<-ID[)].
// Keeps at most `max` entries and counts the rest in `*dropped` (still checked for form).
std::optional<std::vector<Connection>> ParseConnections(std::string_view value,
                                                        std::size_t max = SIZE_MAX,
                                                        std::uint64_t* dropped = nullptr);

}  // namespace ovn_raft
