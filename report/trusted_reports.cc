#include "report/trusted_reports.h"

#include <cstddef>

namespace ovn_raft {
namespace {

// Why one URL's only entry for a database contradicts itself; "" when it does not.
std::string Contradiction(const MemberReport& r) {
  if (r.server_id.empty()) return "its entry has no server ID";
  if (r.address.empty()) return "its entry has no address";
  // Only a member still joining knows no cluster ID yet.
  if (r.cluster_id.empty() && r.status != "joining") {
    return "its entry has no cluster ID, yet its member is not joining";
  }
  const auto self = r.view.find(r.server_id);
  if (self != r.view.end() && self->second != r.address) {
    return "its member " + r.server_id + " says its address is " + r.address +
           " but lists itself at " + self->second;
  }
  return "";
}

void Distrust(TrustedDatabase& db, const MemberReport& r, std::string reason) {
  db.untrusted.push_back({.url = r.source, .reason = std::move(reason), .claimed = {}});
  if (!r.server_id.empty()) db.untrusted.back().claimed.insert(r.server_id);
}

// One database's entries, by URL, to the members counted.
TrustedDatabase Sort(
    const std::string& name,
    const std::vector<std::pair<const UrlStatus*, std::vector<const MemberReport*>>>& by_url) {
  TrustedDatabase db;
  std::vector<const MemberReport*> candidates;
  std::map<const MemberReport*, Binding> bindings;
  for (const auto& [status, entries] : by_url) {
    if (entries.size() > 1) {
      UntrustedUrl u{.url = status->url,
                     .reason = "it lists " + std::to_string(entries.size()) + " entries for " +
                               name + ", but an exporter reads each database of one member once",
                     .claimed = {}};
      for (const MemberReport* e : entries) {
        if (!e->server_id.empty()) u.claimed.insert(e->server_id);
      }
      db.untrusted.push_back(std::move(u));
      continue;
    }
    const MemberReport& e = *entries.front();
    if (!e.up) {
      db.members.push_back(e);  // not a vote: shown as not read
      continue;
    }
    if (std::string why = Contradiction(e); !why.empty()) {
      Distrust(db, e, std::move(why));
      continue;
    }
    Binding binding = BindingOf(e, status->host, status->bindings);
    if (binding.kind == Binding::Kind::kContradicts) {
      Distrust(db, e, std::move(binding.how));
      continue;
    }
    bindings[&e] = std::move(binding);
    candidates.push_back(&e);
  }
  // A member has one exporter: two URLs that claim it cannot both be it, and which one is
  // cannot be told from here.
  std::map<std::string, std::vector<const MemberReport*>> by_id;
  for (const MemberReport* e : candidates) by_id[e->server_id].push_back(e);
  std::vector<const MemberReport*> single;
  for (const MemberReport* e : candidates) {
    const auto& claimants = by_id[e->server_id];
    if (claimants.size() == 1) {
      single.push_back(e);
      continue;
    }
    std::string others;
    for (const MemberReport* o : claimants) {
      if (o != e) others += (others.empty() ? "" : ", ") + o->source;
    }
    Distrust(db, *e, "it claims member " + e->server_id + ", as " + others + " does");
  }
  std::map<std::string, std::size_t> clusters;  // cluster ID -> URLs
  std::size_t with_cluster = 0;
  for (const MemberReport* e : single) {
    if (e->cluster_id.empty()) continue;
    ++clusters[e->cluster_id];
    ++with_cluster;
  }
  for (const auto& [id, n] : clusters) {
    if (2 * n > with_cluster) db.cluster_id = id;
  }
  for (const MemberReport* e : single) {
    if (db.cluster_id.empty() || e->cluster_id.empty() || e->cluster_id == db.cluster_id) {
      db.members.push_back(*e);
      db.bindings[e->server_id] = bindings[e];
      continue;
    }
    Distrust(db, *e,
             "it reports cluster " + e->cluster_id + ", not " + db.cluster_id + " that " +
                 std::to_string(clusters[db.cluster_id]) + " of the " +
                 std::to_string(with_cluster) + " URLs read");
  }
  return db;
}

}  // namespace

std::map<std::string, TrustedDatabase> SortByTrust(const std::vector<UrlStatus>& statuses) {
  // Database -> URL -> its entries, in the order the URLs were given (two URLs shown alike,
  // told apart by their userinfo alone, stay two).
  std::map<std::string, std::vector<std::pair<const UrlStatus*, std::vector<const MemberReport*>>>>
      entries;
  for (const auto& s : statuses) {
    for (const auto& r : s.reports) {
      auto& urls = entries[r.db];
      if (urls.empty() || urls.back().first != &s) urls.push_back({&s, {}});
      urls.back().second.push_back(&r);
    }
  }
  std::map<std::string, TrustedDatabase> out;
  for (const auto& [name, by_url] : entries) out[name] = Sort(name, by_url);
  return out;
}

}  // namespace ovn_raft
