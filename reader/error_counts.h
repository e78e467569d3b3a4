#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace ovn_raft {

// Failed reads since start: (db, reason) -> count. Kept by the ReadCoordinator, exported as
// ovn_raft_exporter_errors_total.
using ErrorCounts = std::map<std::pair<std::string, std::string>, std::uint64_t>;

}  // namespace ovn_raft
