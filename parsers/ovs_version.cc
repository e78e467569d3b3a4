#include "parsers/ovs_version.h"

#include "base/strings.h"

namespace ovn_raft {
namespace {

constexpr std::size_t kMaxVersionLength = 64;

bool VersionChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' ||
         c == '-' || c == '+' || c == '~' || c == '_';
}

}  // namespace

std::optional<std::string> ParseOvsVersion(std::string_view reply) {
  constexpr std::string_view kMarker = " (Open vSwitch) ";
  std::string_view line = reply.substr(0, reply.find('\n'));
  const auto at = line.find(kMarker);
  if (at == std::string_view::npos || at == 0) return std::nullopt;
  std::string_view version = Trim(line.substr(at + kMarker.size()));
  if (version.empty() || version.size() > kMaxVersionLength) return std::nullopt;
  if (version.front() < '0' || version.front() > '9') return std::nullopt;
  for (char c : version) {
    if (!VersionChar(c)) return std::nullopt;
  }
  return std::string(version);
}

}  // namespace ovn_raft
