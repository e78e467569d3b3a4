#include "web/cidr.h"

#include <arpa/inet.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <sstream>

#include "base/strings.h"

namespace ovn_raft {

std::optional<std::vector<std::string>> ParseCidrList(const std::string& value) {
  std::vector<std::string> out;
  std::stringstream in(value);
  for (std::string item; std::getline(in, item, ',');) {
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back()))) item.pop_back();
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front())))
      item.erase(0, 1);
    if (item.empty()) continue;
    const auto slash = item.find('/');
    std::string ip = item.substr(0, slash);
    if (ip.size() > 2 && ip.front() == '[' && ip.back() == ']') ip = ip.substr(1, ip.size() - 2);
    unsigned char buf[16];
    const bool v4 = ip.find(':') == std::string::npos;
    // inet_pton takes only the strict forms: dotted quads of 4 numbers, RFC 4291 text.
    if (inet_pton(v4 ? AF_INET : AF_INET6, ip.c_str(), buf) != 1) return std::nullopt;
    const unsigned max_bits = v4 ? 32 : 128;
    std::uint64_t bits = max_bits;
    if (slash != std::string::npos) {
      const auto n = ParseUint(item.substr(slash + 1));
      if (!n || *n > max_bits) return std::nullopt;
      bits = *n;
    }
    // Host bits are cleared, as Go's net.ParseCIDR does: 10.1.2.3/8 is 10.0.0.0/8. civetweb
    // compares the masked client address with the entry as written, so an entry with host
    // bits would match nobody.
    for (unsigned i = 0; i < max_bits / 8; ++i) {
      const auto keep = static_cast<unsigned>(bits >= 8 * (i + 1) ? 8
                                              : bits > 8 * i      ? bits - 8 * i
                                                                  : 0);
      buf[i] &= static_cast<unsigned char>(0xff00u >> keep);
    }
    char text[INET6_ADDRSTRLEN];
    if (inet_ntop(v4 ? AF_INET : AF_INET6, buf, text, sizeof(text)) == nullptr) return std::nullopt;
    out.push_back(std::string(text) + "/" + std::to_string(bits));
  }
  return out;
}

bool IsIpv6Cidr(const std::string& cidr) { return cidr.find(':') != std::string::npos; }

std::string Ipv4MappedCidr(const std::string& cidr) {
  const auto slash = cidr.find('/');
  const auto bits = ParseUint(cidr.substr(slash + 1));
  return "::ffff:" + cidr.substr(0, slash) + "/" + std::to_string(96 + bits.value_or(32));
}

bool InCidrList(const std::vector<std::string>& cidrs, const std::string& address) {
  if (cidrs.empty()) return true;
  unsigned char ip[16];
  bool v4 = inet_pton(AF_INET, address.c_str(), ip) == 1;
  if (!v4) {
    if (inet_pton(AF_INET6, address.c_str(), ip) != 1) return false;
    const in6_addr* mapped = reinterpret_cast<const in6_addr*>(ip);
    if (IN6_IS_ADDR_V4MAPPED(mapped)) {
      std::memmove(ip, ip + 12, 4);
      v4 = true;
    }
  }
  for (const auto& cidr : cidrs) {
    if (IsIpv6Cidr(cidr) == v4) continue;
    const auto slash = cidr.find('/');
    unsigned char net[16];
    if (inet_pton(v4 ? AF_INET : AF_INET6, cidr.substr(0, slash).c_str(), net) != 1) continue;
    const auto bits = slash == std::string::npos ? std::optional<std::uint64_t>(v4 ? 32 : 128)
                                                 : ParseUint(cidr.substr(slash + 1));
    if (!bits) continue;
    bool match = true;
    for (unsigned i = 0; match && i < (v4 ? 4u : 16u); ++i) {
      const auto keep = static_cast<unsigned>(*bits >= 8 * (i + 1) ? 8
                                              : *bits > 8 * i      ? *bits - 8 * i
                                                                   : 0);
      const auto mask = static_cast<unsigned char>(0xff00u >> keep);
      match = (ip[i] & mask) == (net[i] & mask);
    }
    if (match) return true;
  }
  return false;
}

}  // namespace ovn_raft
