#pragma once

// --web.listen-address, parsed as the Go exporters do (net.SplitHostPort): ":PORT" and
// "0.0.0.0:PORT" listen on every IPv4 interface, "[::]:PORT" on every interface of both
// families, "IP:PORT" and "[IP]:PORT" on one address of either family. A bracketed IPv4
// address is accepted, so that a manifest can write "[$(POD_IP)]:PORT" for IPv4 and IPv6 pods
// alike (Kubernetes cannot add brackets only for IPv6). An IPv6 address needs its brackets.
// Pure.

#include <cstdint>
#include <string>

#include "base/result.h"

namespace ovn_raft {

struct ListenAddress {
  std::string spec;   // as given, e.g. "[::]:10476"
  std::string host;   // "" for every interface; an IP without brackets otherwise
  bool ipv6 = false;  // an IPv6 address, or every interface of both families
  std::uint16_t port = 0;
  // civetweb's listening_ports: "PORT", "+PORT" (both families), "IP:PORT", "[IPv6]:PORT".
  std::string CivetwebPorts() const;
};

// The address, or a message saying what is wrong with `value`.
Result<ListenAddress, std::string> ParseListenAddress(const std::string& value);

}  // namespace ovn_raft
