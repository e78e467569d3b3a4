#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace ovn_raft {

// Parses a Prometheus-style duration: "0", "500ms", "2s", "1m30s", "1h". Units: ms s m h.
std::optional<std::chrono::milliseconds> ParseDuration(std::string_view text);

// The spelling ParseDuration reads back, in the largest unit that is exact: 2000ms -> "2s", so
// that a default kept as a constant shows in --help as a user would write it.
std::string FormatDuration(std::chrono::milliseconds d);

}  // namespace ovn_raft
