#pragma once

#include <string_view>

#include "parsers/cluster_status.h"

namespace ovn_raft {

// Splits an OVSDB address ("tcp:IP:PORT", "ssl:[IPv6]:PORT", "tcp:name:PORT", "unix:PATH")
// into scheme, host and port. Never fails: what cannot be split is kept in `raw` and `host`.
Address ParseAddress(std::string_view text);

}  // namespace ovn_raft
