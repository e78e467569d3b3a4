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
// Whether `address` ("10.0.0.3", "2001:db8::1", "::ffff:10.0.0.3" as an IPv4 client of a
// dual-stack socket shows) is in one of `cidrs` (from ParseCidrList), as civetweb's access list
// made of them (http_server.cc) decides; an empty list holds every address.
bool InCidrList(const std::vector<std::string>& cidrs, const std::string& address);

}  // namespace ovn_raft
