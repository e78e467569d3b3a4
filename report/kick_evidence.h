#pragma once

// Whether the evidence allows advising `cluster/kick` of a member at all: the analysis ranks
// suspects from every view, but only the cluster's own leader, read through an exporter shown
// to be its own, knows whether it still hears a member; and a URL that was not read, or not
// believed, may be the very member the others call stale. Pure.

#include <optional>
#include <string>
#include <vector>

#include "report/trusted_reports.h"

namespace ovn_raft {

// Why no kick of `id` may be advised in cluster `cluster_id` of database `db`, naming every
// piece of evidence that is missing; nullopt when it may. Each of these must hold:
//  - no URL given to the report is unreachable (`unreachable`: it may read this database),
//    no URL of the database is untrusted, and every URL that lists it could read it;
//  - the cluster is the one most URLs read (TrustedDatabase::cluster_id);
//  - more than half of its reporters that know a leader name the same one, and that leader's
//    own report is a leader's, from a URL bound to it (member_binding.h);
//  - that report lists `id` and last heard from it two election timers ago or more;
//  - `id`'s own report, when one is counted, comes from a URL bound to it and agrees: it is
//    not a connected, healthy cluster member.
std::optional<std::string> WhyNoKick(const TrustedDatabase& db,
                                     const std::vector<std::string>& unreachable,
                                     const std::string& cluster_id, const std::string& id);

}  // namespace ovn_raft
