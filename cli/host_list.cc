#include "cli/host_list.h"

#include <cctype>
#include <set>

namespace ovn_raft {

std::optional<std::vector<std::string>> ParseHostList(const std::string& value) {
  std::set<std::string> hosts;
  std::string host;
  auto take = [&]() -> bool {
    if (host.empty()) return true;
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
      host = host.substr(1, host.size() - 2);
    }
    for (char& ch : host) {
      ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      // IPv4, IPv6 (with a zone after %), DNS names.
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != ':' && ch != '-' &&
          ch != '%' && ch != '_') {
        return false;
      }
    }
    hosts.insert(host);
    host.clear();
    return true;
  };
  for (char ch : value) {
    if (ch == ',' || std::isspace(static_cast<unsigned char>(ch))) {
      if (!take()) return std::nullopt;
    } else {
      host += ch;
    }
  }
  if (!take()) return std::nullopt;
  return std::vector<std::string>(hosts.begin(), hosts.end());
}

}  // namespace ovn_raft
