#include "cli/expected_cluster_flags.h"

#include "base/strings.h"
#include "cli/host_list.h"

namespace ovn_raft {

// Far above any Raft cluster (ovn-central runs 3 or 5), low enough to bound the series.
constexpr std::uint64_t kMaxExpected = 99;

std::optional<std::string> SetExpectedMembers(ExpectedCluster& expected, const std::string& value) {
  const auto n = ParseUint(value);
  if (!n || *n > kMaxExpected) {
    return "expected a number of members from 0 to 99, got \"" + value + "\"";
  }
  expected.members = static_cast<int>(*n);
  return std::nullopt;
}

std::optional<std::string> SetExpectedHosts(ExpectedCluster& expected, const std::string& value) {
  auto hosts = ParseHostList(value);
  if (!hosts)
    return "expected IPs or DNS names separated by commas or spaces, got \"" + value + "\"";
  if (hosts->size() > kMaxExpected) return "expected at most 99 hosts";
  expected.hosts = std::move(*hosts);
  return std::nullopt;
}

}  // namespace ovn_raft
