#include "metrics/membership_view.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace ovn_raft {
namespace {

std::string Fnv1a64(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// Number of keys mapped to more than one distinct member ID.
std::size_t Shared(const std::map<std::string, std::set<std::string>>& ids_by_key) {
  return static_cast<std::size_t>(std::count_if(
      ids_by_key.begin(), ids_by_key.end(), [](const auto& kv) { return kv.second.size() > 1; }));
}

}  // namespace

MembershipView AnalyzeMembership(const ClusterStatus& status) {
  MembershipView v;
  if (!status.servers) return v;
  const auto& servers = *status.servers;
  v.members = servers.size();
  if (v.members > 0) v.quorum_size = v.members / 2 + 1;

  std::vector<std::pair<std::string, std::string>> pairs;
  std::map<std::string, std::set<std::string>> ids_by_host, ids_by_address;
  std::map<std::string, int> id_count;
  for (const auto& e : servers) {
    pairs.emplace_back(e.server_id, e.address.raw);
    ids_by_host[e.address.host].insert(e.server_id);
    ids_by_address[e.address.raw].insert(e.server_id);
    ++id_count[e.server_id];
    if (e.self) v.self_in_view = true;
  }
  std::sort(pairs.begin(), pairs.end());
  std::string canonical;
  for (const auto& [id, address] : pairs) canonical += id + "=" + address + "\n";
  v.hash = Fnv1a64(canonical);

  v.duplicate_hosts = Shared(ids_by_host);
  v.duplicate_addresses = Shared(ids_by_address);
  v.duplicate_short_ids = static_cast<std::size_t>(std::count_if(
      id_count.begin(), id_count.end(), [](const auto& kv) { return kv.second > 1; }));
  if (status.address && status.server_id) {
    const auto it = ids_by_address.find(status.address->raw);
    if (it != ids_by_address.end()) {
      v.self_address_conflict =
          std::any_of(it->second.begin(), it->second.end(),
                      [&](const std::string& id) { return id != *status.server_id; });
    }
  }
  return v;
}

}  // namespace ovn_raft
