#pragma once

// Which /status entries the report counts. A URL is an exporter beside one member: per
// database it speaks for that member alone (its own server ID and address). What it says of
// other members (its view, what its leader hears) is evidence the analysis weighs, never a
// vote; a URL whose /status contradicts itself, or claims a member another URL claims, or
// another cluster than the one most URLs read, or another member than the one --member binds
// its URL to, is named untrusted and counts for nothing. Whether a counted URL is its member's
// own exporter (member_binding.h) is kept beside it: a kick rests only on such URLs. Pure.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "consensus/member_report.h"
#include "report/member_binding.h"

namespace ovn_raft {

// One URL's /status, decoded.
struct UrlStatus {
  std::string url;  // as it may be shown (redacted, terminal-safe)
  std::vector<MemberReport> reports;
  std::string host;                     // the URL's host (UrlHost)
  std::vector<MemberBinding> bindings;  // the operator's --member values for this URL
};

struct UntrustedUrl {
  std::string url;
  std::string reason;
  std::set<std::string> claimed;  // the server IDs its entries give themselves
};

struct TrustedDatabase {
  std::vector<MemberReport> members;    // at most one per URL: the votes
  std::vector<UntrustedUrl> untrusted;  // not counted, with why
  // The cluster ID most URLs that read the database report (more than half of them); "" when
  // none does. Kicks are advised only in that cluster.
  std::string cluster_id;
  // Each counted reporter (server ID) and whether its URL is shown to be its own exporter.
  std::map<std::string, Binding> bindings;
};

// Per database, what the report counts.
std::map<std::string, TrustedDatabase> SortByTrust(const std::vector<UrlStatus>& statuses);

}  // namespace ovn_raft
