#include "web/listen_address.h"

#include <arpa/inet.h>

#include "base/strings.h"

namespace ovn_raft {

std::string ListenAddress::CivetwebPorts() const {
  const std::string p = std::to_string(port);
  if (host.empty()) return ipv6 ? "+" + p : p;
  return ipv6 ? "[" + host + "]:" + p : host + ":" + p;
}

Result<ListenAddress, std::string> ParseListenAddress(const std::string& value) {
  const std::string usage = "expected HOST:PORT, [IPv6]:PORT or :PORT, got \"" + value + "\"";
  const auto colon = value.rfind(':');
  if (colon == std::string::npos) return usage;
  const auto port = ParseUint(value.substr(colon + 1));
  if (!port || *port > 65535) return usage;
  std::string host = value.substr(0, colon);
  const bool bracketed = host.size() >= 2 && host.front() == '[' && host.back() == ']';
  if (bracketed) host = host.substr(1, host.size() - 2);
  ListenAddress a;
  a.spec = value;
  a.port = static_cast<std::uint16_t>(*port);
  unsigned char buf[16];
  if (host.find(':') != std::string::npos) {
    if (!bracketed) {
      return "an IPv6 address needs brackets: [" + host + "]:" + value.substr(colon + 1) +
             ", got \"" + value + "\"";
    }
    if (inet_pton(AF_INET6, host.c_str(), buf) != 1) return usage;
    a.ipv6 = true;
    if (host != "::") a.host = host;
    return a;
  }
  if (host.empty() || host == "0.0.0.0") return a;
  if (inet_pton(AF_INET, host.c_str(), buf) != 1) {
    return "expected an IP address to listen on, got \"" + host + "\" in \"" + value + "\"";
  }
  a.host = host;
  return a;
}

}  // namespace ovn_raft
