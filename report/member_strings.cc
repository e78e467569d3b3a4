#include "report/member_strings.h"

#include <map>
#include <set>

namespace ovn_raft {
namespace {

template <typename V>
std::map<std::string, V> RewriteKeys(const std::map<std::string, V>& in,
                                     const std::function<std::string(const std::string&)>& f) {
  std::map<std::string, V> out;
  for (const auto& [k, v] : in) out[f(k)] = v;
  return out;
}

}  // namespace

void RewriteStrings(MemberReport& r, const std::function<std::string(const std::string&)>& f) {
  for (std::string* s : {&r.source, &r.db, &r.ctl, &r.error, &r.cluster_id, &r.server_id,
                         &r.address, &r.status, &r.role, &r.leader, &r.ovs_version}) {
    *s = f(*s);
  }
  std::map<std::string, std::string> view;
  for (const auto& [id, address] : r.view) view[f(id)] = f(address);
  r.view = std::move(view);
  r.heard_ms_ago = RewriteKeys(r.heard_ms_ago, f);
  r.match_index = RewriteKeys(r.match_index, f);
  std::set<std::string> established;
  for (const auto& id : r.established) established.insert(f(id));
  r.established = std::move(established);
  std::set<std::string> hosts;  // kept sorted: ExpectedCluster looks hosts up by bisection
  for (const auto& host : r.expected.hosts) hosts.insert(f(host));
  r.expected.hosts.assign(hosts.begin(), hosts.end());
}

}  // namespace ovn_raft
