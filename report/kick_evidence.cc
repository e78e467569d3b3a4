#include "report/kick_evidence.h"

#include <cstddef>
#include <map>

namespace ovn_raft {
namespace {

std::string List(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

// What the URLs leave unknown: unreachable, untrusted or unreadable ones.
void UrlGaps(const TrustedDatabase& db, const std::vector<std::string>& unreachable,
             std::vector<std::string>& missing) {
  if (!unreachable.empty()) missing.push_back("unreachable: " + List(unreachable));
  std::vector<std::string> untrusted;
  for (const auto& u : db.untrusted) untrusted.push_back(u.url);
  if (!untrusted.empty()) missing.push_back("untrusted: " + List(untrusted));
  std::vector<std::string> unread;
  for (const auto& m : db.members) {
    if (!m.up && !ServedWithoutRaft(m)) unread.push_back(m.source);
  }
  if (!unread.empty()) missing.push_back("could not read it: " + List(unread));
}

// The leader most of the cluster's reporters that know one name; "" when none.
std::string AgreedLeader(const TrustedDatabase& db, const std::string& cluster_id) {
  std::map<std::string, std::size_t> named;  // leader -> reporters that follow it
  std::size_t knowing = 0;
  for (const auto& m : db.members) {
    if (!m.up || m.cluster_id != cluster_id || m.status == "failed") continue;
    if (m.leader.empty() || m.leader == "unknown") continue;
    ++named[m.leader];
    ++knowing;
  }
  for (const auto& [l, n] : named) {
    if (2 * n > knowing) return l;
  }
  return "";
}

const MemberReport* OwnReport(const TrustedDatabase& db, const std::string& cluster_id,
                              const std::string& id) {
  for (const auto& m : db.members) {
    if (m.up && m.cluster_id == cluster_id && m.server_id == id) return &m;
  }
  return nullptr;
}

// "" when the URL of `m` is bound to it, else what is missing.
std::string Unbound(const TrustedDatabase& db, const MemberReport& m, const std::string& who) {
  const auto b = db.bindings.find(m.server_id);
  if (b != db.bindings.end() && b->second.kind == Binding::Kind::kShown) return "";
  const std::string why = b == db.bindings.end() ? "nothing ties it to it" : b->second.how;
  return who + "'s report comes from " + m.source + ", not shown to be its own exporter (" + why +
         "; --member=URL=" + m.server_id + " binds it)";
}

// What the leader's own report lacks to name `id` unheard.
void LeaderWord(const TrustedDatabase& db, const std::string& cluster_id, const std::string& id,
                std::vector<std::string>& missing) {
  const std::string leader = AgreedLeader(db, cluster_id);
  if (leader.empty()) {
    missing.push_back("its members do not agree on a leader");
    return;
  }
  const MemberReport* own = OwnReport(db, cluster_id, leader);
  const std::string who = "the leader " + leader;
  if (own == nullptr) {
    missing.push_back(who + "'s own exporter was not read");
    return;
  }
  if (std::string why = Unbound(db, *own, who); !why.empty()) missing.push_back(why);
  if (own->role != "leader" || own->status == "failed") {
    missing.push_back(who + "'s own exporter does not read a leader");
    return;
  }
  if (!own->view.count(id)) {
    missing.push_back(who + " does not list it");
    return;
  }
  const auto heard = own->heard_ms_ago.find(id);
  if (heard == own->heard_ms_ago.end() || !own->election_timer_ms) {
    missing.push_back(who + " does not say when it last heard from it");
  } else if (heard->second < 2 * *own->election_timer_ms) {
    missing.push_back(who + " heard from it " + std::to_string(heard->second) + " ms ago");
  }
}

}  // namespace

std::optional<std::string> WhyNoKick(const TrustedDatabase& db,
                                     const std::vector<std::string>& unreachable,
                                     const std::string& cluster_id, const std::string& id) {
  std::vector<std::string> missing;
  UrlGaps(db, unreachable, missing);
  if (db.cluster_id.empty() || cluster_id != db.cluster_id) {
    missing.push_back("no cluster ID is read by more than half of the URLs");
  } else {
    LeaderWord(db, cluster_id, id, missing);
  }
  if (const MemberReport* victim = OwnReport(db, cluster_id, id)) {
    if (std::string why = Unbound(db, *victim, id); !why.empty()) missing.push_back(why);
    if (victim->status == "cluster_member" && victim->connected.value_or(true)) {
      missing.push_back("its own exporter reads a connected cluster member");
    }
  }
  if (missing.empty()) return std::nullopt;
  std::string out;
  for (const auto& m : missing) out += (out.empty() ? "" : "; ") + m;
  return out;
}

}  // namespace ovn_raft
