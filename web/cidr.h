#pragma once

// Networks allowed to reach the web edge, as given on the command line. Pure.

#include <optional>
#include <string>
#include <vector>

namespace ovn_raft {

// "10.0.0.0/8, 192.168.1.5, fd00::/8, [::1]": IPv4 and IPv6 CIDRs (a bare address is /32 or
// /128, brackets dropped, host bits cleared: "10.1.2.3/8" is "10.0.0.0/8"); nullopt when one is
// not.
std::optional<std::vector<std::string>> ParseCidrList(const std::string& value);
bool IsIpv6Cidr(const std::string& cidr);
// An IPv4 CIDR from ParseCidrList as IPv4 clients of a dual-stack socket ([::]:PORT) show:
// "127.0.0.0/8" -> "::ffff:127.0.0.0/104".
std::string Ipv4MappedCidr(const std::string& cidr);

}  // namespace ovn_raft
