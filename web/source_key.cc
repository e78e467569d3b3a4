#include "web/source_key.h"

#include <arpa/inet.h>

#include <algorithm>

namespace ovn_raft {

std::string SourceKey(const std::string& address) {
  in6_addr a{};
  if (address.find(':') == std::string::npos || inet_pton(AF_INET6, address.c_str(), &a) != 1) {
    return address;
  }
  char text[INET6_ADDRSTRLEN];
  // An IPv4 client of a dual-stack socket ([::]:PORT) shows as ::ffff:a.b.c.d: its own source.
  if (IN6_IS_ADDR_V4MAPPED(&a)) return inet_ntop(AF_INET, a.s6_addr + 12, text, sizeof(text));
  std::fill(a.s6_addr + 8, a.s6_addr + 16, 0);
  return std::string(inet_ntop(AF_INET6, &a, text, sizeof(text))) + "/64";
}

}  // namespace ovn_raft
