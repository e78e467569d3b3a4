#pragma once

// Whether the evidence allows advising `cluster/kick` of a member at all: the analysis ranks
// suspects from every view, but only the cluster's own leader, read through its own exporter,
// knows whether it still hears a member. Pure.

#include <optional>
#include <string>
#include <vector>

#include "consensus/member_report.h"

namespace ovn_raft {

// Why no kick of `id` may be advised in cluster `cluster_id`, whose trusted reports are among
// `members`; nullopt when it may: the cluster is the one most URLs read (`majority_cluster`),
// more than half of its reporters that know a leader name the same one, that leader's own
// report (its own exporter) is a leader's, lists `id`, and last heard from it two election
// timers ago or more.
std::optional<std::string> WhyNoKick(const std::vector<MemberReport>& members,
                                     const std::string& cluster_id, bool majority_cluster,
                                     const std::string& id);

}  // namespace ovn_raft
