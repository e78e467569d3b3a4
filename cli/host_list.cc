#include "cli/host_list.h"

#include <cctype>
#include <set>
#include <sstream>

#include "parsers/numbers.h"

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
    const std::string ip = item.substr(0, slash);
    int octets = 0;
    std::stringstream parts(ip);
    for (std::string octet; std::getline(parts, octet, '.');) {
      const auto n = ParseUint(octet);
      if (!n || *n > 255 || octet.size() > 3) return std::nullopt;
      ++octets;
    }
    if (octets != 4 || ip.back() == '.') return std::nullopt;
    if (slash != std::string::npos) {
      const auto bits = ParseUint(item.substr(slash + 1));
      if (!bits || *bits > 32) return std::nullopt;
    } else {
      item += "/32";
    }
    out.push_back(item);
  }
  return out;
}

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
