#pragma once

// Lists of hosts given on the command line. Pure.

#include <optional>
#include <string>
#include <vector>

namespace ovn_raft {

// Kube-OVN's NODE_IPS format: IPs or DNS names separated by commas and/or spaces, IPv6 with or
// without brackets. Returns them lower-cased, brackets removed, sorted and unique; nullopt when
// an entry is not a host.
std::optional<std::vector<std::string>> ParseHostList(const std::string& value);

}  // namespace ovn_raft
