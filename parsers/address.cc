#include "parsers/address.h"

#include "base/strings.h"

namespace ovn_raft {

Address ParseAddress(std::string_view text) {
  Address a;
  a.raw = std::string(text);
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    a.host = a.raw;
    return a;
  }
  a.scheme = std::string(text.substr(0, colon));
  std::string_view rest = text.substr(colon + 1);
  if (a.scheme == "unix" || a.scheme == "punix") {
    a.host = std::string(rest);
    return a;
  }
  std::string_view host = rest;
  std::string_view port;
  if (!rest.empty() && rest.front() == '[') {
    // Bracketed IPv6: the port follows "]:".
    const auto close = rest.find(']');
    if (close != std::string_view::npos) {
      host = rest.substr(1, close - 1);
      if (close + 1 < rest.size() && rest[close + 1] == ':') port = rest.substr(close + 2);
    }
  } else if (const auto last = rest.rfind(':'); last != std::string_view::npos) {
    host = rest.substr(0, last);
    port = rest.substr(last + 1);
  }
  a.host = std::string(host);
  if (auto p = ParseUint(port); p && *p <= 65535) a.port = static_cast<std::uint16_t>(*p);
  return a;
}

}  // namespace ovn_raft
