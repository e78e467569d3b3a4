#pragma once

// The reply to the unixctl command `version`, which every OVS daemon answers itself:
// "ovsdb-server (Open vSwitch) 3.5.0" (program, then the release and any distribution suffix).
// Pure.

#include <optional>
#include <string>
#include <string_view>

namespace ovn_raft {

// The release ("3.5.0", "3.3.90", "3.1.0-65.el9fdp"), or nothing when the reply is not of that
// form or the release is not a plain version token (it becomes a label value).
std::optional<std::string> ParseOvsVersion(std::string_view reply);

}  // namespace ovn_raft
