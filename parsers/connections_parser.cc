#include "parsers/connections_parser.h"

#include "base/strings.h"

namespace ovn_raft {

std::optional<std::vector<Connection>> ParseConnections(std::string_view value, std::size_t max,
                                                        std::uint64_t* dropped) {
  std::vector<Connection> out;
  while (true) {
    value = Trim(value);
    if (value.empty()) break;
    const auto space = value.find(' ');
    std::string_view token = value.substr(0, space);
    value.remove_prefix(space == std::string_view::npos ? value.size() : space);

    Connection c;
    // OVS wraps connections that are not up in parentheses.
    const bool wrapped = ConsumePrefix(token, "(");
    if (wrapped && !ConsumeSuffix(token, ")")) return std::nullopt;
    c.connected = !wrapped;
    if (ConsumePrefix(token, "->")) {
      c.outbound = true;
    } else if (!ConsumePrefix(token, "<-")) {
      return std::nullopt;
    }
    if (token.empty()) return std::nullopt;
    if (out.size() >= max) {
      if (dropped) ++*dropped;
      continue;
    }
    c.peer = std::string(token);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace ovn_raft
