#pragma once

// The client a per-source bound accounts to. An IPv4 address is itself; an IPv6 address is
// its /64, since one host is routinely given a whole /64 and could otherwise pose as millions.

#include <string>

namespace ovn_raft {

// "10.0.0.3" and "::ffff:10.0.0.3" -> "10.0.0.3"; "2001:db8:1:2:3:4:5:6" ->
// "2001:db8:1:2::/64"; anything else as is.
std::string SourceKey(const std::string& address);

}  // namespace ovn_raft
