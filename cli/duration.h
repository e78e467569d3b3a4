#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace ovn_raft {

// Parses a Prometheus-style duration: "0", "500ms", "2s", "1m30s", "1h". Units: ms s m h.
std::optional<std::chrono::milliseconds> ParseDuration(std::string_view text);

}  // namespace ovn_raft
