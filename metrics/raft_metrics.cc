#include "metrics/raft_metrics.h"

#include <set>

#include "metrics/family_builder.h"
#include "metrics/main_loop_metrics.h"
#include "metrics/membership_view.h"
#include "metrics/ovsdb_server_metrics.h"

namespace ovn_raft {
namespace {

constexpr MemberStatus kStatuses[] = {MemberStatus::kClusterMember, MemberStatus::kJoining,
                                      MemberStatus::kLeaving,       MemberStatus::kLeft,
                                      MemberStatus::kFailed,        MemberStatus::kDisconnected};
constexpr Role kRoles[] = {Role::kLeader, Role::kCandidate, Role::kFollower};

double Bool(bool b) { return b ? 1 : 0; }

// "adding: caught up" -> "caught_up", the names ServerPhaseName uses.
std::string AddingPhase(std::string text) {
  if (text.rfind("adding: ", 0) == 0) text.erase(0, 8);
  for (char& c : text) c = c == ' ' ? '_' : c;
  return text.empty() ? "catchup" : text;
}

class RaftMetrics {
 public:
  RaftMetrics(const Snapshot& snapshot, std::vector<prometheus::MetricFamily> reuse)
      : now_ms_(ToMs(snapshot.taken_at)), b_(128, std::move(reuse)) {}

  void Database(const DatabaseReading& r, const ExpectedCluster& expected) {
    const Labels db{{"db", r.target.name}};
    if (expected.size() > 0) {
      b_.Gauge(
          "ovn_raft_expected_members",
          "Members the operator expects in this cluster (--cluster.expected-members, or the number "
          "of --cluster.expected-hosts).",
          db, expected.size());
    }
    for (const auto& host : expected.hosts) {
      b_.Gauge(
          "ovn_raft_expected_host_info",
          "A host a member of this cluster should run on (--cluster.expected-hosts); always 1.",
          {{"db", r.target.name}, {"host", host}}, 1);
    }
    b_.Gauge("ovn_raft_up",
             "1 when the database was read: its Raft status, or for a standalone or relay "
             "database its _Server row.",
             db, Bool(r.up()));
    b_.Gauge("ovn_raft_exporter_read_duration_seconds", "Time spent reading this database.", db,
             r.duration_seconds);
    if (r.model) {
      b_.Gauge("ovn_raft_database_model_info",
               "What kind of database this is (_Server's model: clustered, standalone, relay); "
               "only a clustered one has Raft series. Always 1.",
               {{"db", r.target.name}, {"model", DatabaseModelName(*r.model)}}, 1);
    }
    AddOvsdbServerMetrics(r, b_);
    AddMainLoopMetrics(r, b_);
    if (r.server) Server(db, *r.server);
    if (r.status) Status(r.target.name, *r.status);
  }

  // Every known reason of every database, from 0: rate() and increase() then see a first
  // failure as a step from 0, not as a series that appears.
  void Errors(const std::vector<DatabaseReading>& databases, const ErrorCounts& counted) {
    ErrorCounts errors = counted;
    for (const auto& db : databases) {
      for (const ErrorCode code : kAllErrorCodes) {
        errors.try_emplace({db.target.name, ErrorCodeName(code)}, 0);
      }
    }
    for (const auto& [key, count] : errors) {
      b_.Counter("ovn_raft_exporter_errors_total",
                 "Failed reads of a database, by reason (socket_missing, timeout, rpc_error, ...).",
                 {{"db", key.first}, {"reason", key.second}}, static_cast<double>(count));
    }
  }

  void Rounds(std::uint64_t rounds) {
    b_.Counter("ovn_raft_exporter_read_rounds_total",
               "Rounds of reads sent to ovsdb-server (scrapes may share or reuse one).", {},
               static_cast<double>(rounds));
  }

  std::vector<prometheus::MetricFamily> Take() { return b_.Take(); }

 private:
  static std::int64_t ToMs(std::chrono::system_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  }
  double TimestampAgo(std::uint64_t ms_ago) const {
    return static_cast<double>(now_ms_ - static_cast<std::int64_t>(ms_ago)) / 1000.0;
  }

  // The row's columns mean what the model makes of them: `connected` is a member's contact
  // with a majority, a relay's with its source, and always true for a standalone database.
  void Server(const Labels& db, const ServerDatabase& s) {
    const auto model = ParseDatabaseModel(s.model);
    b_.Gauge("ovn_raft_clustered", "1 when _Server reports the database model as clustered.", db,
             Bool(model == DatabaseModel::kClustered));
    if (model == DatabaseModel::kClustered) {
      b_.Gauge("ovn_raft_connected",
               "1 while the server is in contact with a majority of its cluster (_Server).", db,
               Bool(s.connected));
    } else if (model == DatabaseModel::kRelay) {
      b_.Gauge("ovn_raft_relay_connected",
               "1 while this relay database is connected to its relay source and can forward "
               "transactions (_Server); ovsdb-server still says 1 for a grace period while the "
               "relay reconnects.",
               db, Bool(s.connected));
    }
    if (s.index) {
      b_.Gauge("ovn_raft_database_index", "Last Raft log index applied to the database (_Server).",
               db, static_cast<double>(*s.index));
    }
  }

  void Status(const std::string& name, const ClusterStatus& s) {
    Identity(name, s);
    Roles(name, s);
    Elections(name, s);
    RaftLog(name, s);
    if (s.connections) Connections(name, *s.connections);
    if (s.disconnections) {
      b_.Counter("ovn_raft_disconnections_total", "Raft connections lost since server start.",
                 {{"db", name}}, static_cast<double>(*s.disconnections));
    }
    if (s.servers) {
      const std::string server_id = s.server_id.value_or("");
      ViewSummary(name, s.cluster_id.value_or(""), server_id, AnalyzeMembership(s));
      Members(name, server_id, s);
    }
  }

  // Who this server is, and how much of its status was understood.
  void Identity(const std::string& name, const ClusterStatus& s) {
    const Labels db{{"db", name}};
    b_.Gauge("ovn_raft_parse_warnings",
             "Lines of cluster/status the parser did not understand (see /status).", db,
             static_cast<double>(s.warnings.size()));
    b_.Gauge("ovn_raft_status_entries_dropped",
             "Entries of cluster/status lists (warnings, remotes, connections, members being "
             "added) beyond the exporter's bound of 4096 each: counted, not kept.",
             db, static_cast<double>(s.entries_dropped));
    b_.Gauge("ovn_raft_server_info", "Identity of this server; always 1.",
             {{"db", name},
              {"cluster_id", s.cluster_id.value_or("")},
              {"cluster_uuid", s.cluster_uuid.value_or("")},
              {"server_id", s.server_id.value_or("")},
              {"server_uuid", s.server_uuid.value_or("")},
              {"address", s.address ? s.address->raw : ""},
              {"host", s.address ? s.address->host : ""}},
             1);
  }

  // Its membership status and Raft role, one series per possible value.
  void Roles(const std::string& name, const ClusterStatus& s) {
    if (s.status) {
      for (MemberStatus st : kStatuses) {
        b_.Gauge("ovn_raft_status", "Membership status of this server; 1 for the current one.",
                 {{"db", name}, {"status", MemberStatusName(st)}}, Bool(*s.status == st));
      }
    }
    if (s.role) {
      for (Role role : kRoles) {
        b_.Gauge("ovn_raft_role", "Raft role of this server; 1 for the current one.",
                 {{"db", name}, {"role", RoleName(role)}}, Bool(*s.role == role));
      }
    }
  }

  // The term, the leader it knows, its vote, the election timer and its last elections.
  void Elections(const std::string& name, const ClusterStatus& s) {
    const Labels db{{"db", name}};
    Num("ovn_raft_term", "Current Raft term.", db, s.term);
    if (s.leader) {
      const bool known = *s.leader != "unknown";
      b_.Gauge("ovn_raft_has_leader", "1 when this server knows a leader.", db, Bool(known));
      if (known) {
        b_.Gauge("ovn_raft_leader_info", "The leader this server follows; always 1.",
                 {{"db", name},
                  {"leader_id", *s.leader == "self" ? s.server_id.value_or("") : *s.leader}},
                 1);
      }
    }
    if (s.vote) {
      b_.Gauge("ovn_raft_voted_for_self", "1 when this server voted for itself in this term.", db,
               Bool(*s.vote == "self"));
    }
    if (s.election_timer_ms) {
      b_.Gauge("ovn_raft_election_timer_seconds", "Raft election timer.", db,
               static_cast<double>(*s.election_timer_ms) / 1000.0);
    }
    if (s.election_timer_target_ms) {
      b_.Gauge("ovn_raft_election_timer_target_seconds",
               "Election timer being changed to (leader, while a change is in progress).", db,
               static_cast<double>(*s.election_timer_target_ms) / 1000.0);
    }
    if (s.last_election_started_ms_ago) {
      b_.Gauge(
          "ovn_raft_last_election_started_timestamp_seconds",
          "When this server last started an election, as a Unix timestamp.",
          {{"db", name},
           {"reason", s.last_election_reason ? ElectionReasonName(*s.last_election_reason) : ""}},
          TimestampAgo(*s.last_election_started_ms_ago));
    }
    if (s.last_election_won_ms_ago) {
      b_.Gauge("ovn_raft_last_election_won_timestamp_seconds",
               "When this server last won an election, as a Unix timestamp.", db,
               TimestampAgo(*s.last_election_won_ms_ago));
    }
  }

  // Its Raft log: bounds and backlogs.
  void RaftLog(const std::string& name, const ClusterStatus& s) {
    const Labels db{{"db", name}};
    Num("ovn_raft_log_first_index", "First index in this server's Raft log.", db,
        s.log_first_index);
    Num("ovn_raft_log_next_index", "Index the next Raft log entry will take.", db,
        s.log_next_index);
    Num("ovn_raft_log_entries_uncommitted", "Log entries not yet committed.", db,
        s.entries_not_committed);
    Num("ovn_raft_log_entries_unapplied", "Log entries not yet applied.", db,
        s.entries_not_applied);
  }

  // Peers that have not said who they are yet ("0000": a peer mid-handshake, or any client
  // on the Raft port) are counted apart, so that the peer counts mean peers.
  void Connections(const std::string& name, const std::vector<Connection>& connections) {
    int counts[2][2] = {{0, 0}, {0, 0}};  // [outbound][connected], identified peers
    int unidentified[2] = {0, 0};         // [outbound]
    for (const auto& c : connections) {
      if (c.peer_known()) {
        ++counts[c.outbound][c.connected];
      } else {
        ++unidentified[c.outbound];
      }
    }
    for (int out = 0; out < 2; ++out) {
      for (int up = 0; up < 2; ++up) {
        b_.Gauge("ovn_raft_connections",
                 "Raft connections to and from identified peers, by direction and state.",
                 {{"db", name},
                  {"direction", out ? "outbound" : "inbound"},
                  {"state", up ? "connected" : "connecting"}},
                 counts[out][up]);
      }
      b_.Gauge("ovn_raft_unidentified_connections",
               "Connections on the Raft port whose peer has not identified itself (0000).",
               {{"db", name}, {"direction", out ? "outbound" : "inbound"}}, unidentified[out]);
    }
  }

  // What this server's view of the membership amounts to: its size, quorum, hash, conflicts.
  void ViewSummary(const std::string& name, const std::string& cluster_id,
                   const std::string& server_id, const MembershipView& v) {
    const Labels db{{"db", name}};
    b_.Gauge("ovn_raft_members", "Members in this server's view of the cluster.", db,
             static_cast<double>(v.members));
    // A joining server has no view yet: no quorum to speak of. How many failures the cluster
    // tolerates needs every member's word: ovn_raft_cluster:failure_tolerance:count.
    if (v.members > 0) {
      b_.Gauge("ovn_raft_quorum_size", "Votes needed for a majority of this view: floor(n/2)+1.",
               db, static_cast<double>(v.quorum_size));
    }
    b_.Gauge(
        "ovn_raft_view_info", "Hash of this server's membership view; always 1.",
        {{"db", name}, {"cluster_id", cluster_id}, {"server_id", server_id}, {"view_hash", v.hash}},
        1);
    b_.Gauge("ovn_raft_view_duplicate_hosts",
             "Hosts claimed by more than one member ID in this view.", db,
             static_cast<double>(v.duplicate_hosts));
    b_.Gauge("ovn_raft_view_duplicate_addresses",
             "Addresses claimed by more than one member ID in this view.", db,
             static_cast<double>(v.duplicate_addresses));
    b_.Gauge("ovn_raft_view_duplicate_short_ids", "Short member IDs listed more than once.", db,
             static_cast<double>(v.duplicate_short_ids));
    b_.Gauge("ovn_raft_self_in_view", "1 when this server is in its own membership view.", db,
             Bool(v.self_in_view));
    b_.Gauge("ovn_raft_self_address_conflict",
             "1 when another member ID claims this server's own address.", db,
             Bool(v.self_address_conflict));
  }

  // Each member of the view as this server sees it, and the members being added or removed.
  void Members(const std::string& name, const std::string& server_id, const ClusterStatus& s) {
    const std::string cluster_id = s.cluster_id.value_or("");
    // Peers with an established Raft connection, either way: a living member vouching for
    // them is what the rules count as alive (ovn_raft_cluster_member:alive:bool).
    std::set<std::string> established;
    if (s.connections) {
      for (const auto& c : *s.connections) {
        if (c.connected && c.peer_known()) established.insert(c.peer);
      }
    }
    std::set<std::string> changing, listed;
    for (const auto& e : *s.servers) {
      // An ID listed twice (ovn_raft_view_duplicate_short_ids counts it) would give duplicate
      // series, an invalid page: its first line stands for it.
      if (!listed.insert(e.server_id).second) continue;
      const Labels member{{"db", name}, {"server_id", server_id}, {"member_id", e.server_id}};
      b_.Gauge("ovn_raft_member_info", "A member in this server's view; always 1.",
               {{"db", name},
                {"cluster_id", cluster_id},
                {"server_id", server_id},
                {"member_id", e.server_id},
                {"address", e.address.raw},
                {"host", e.address.host}},
               1);
      if (e.last_msg_ms_ago) {
        b_.Gauge("ovn_raft_member_last_message_age_seconds",
                 "Time since this server last heard from the member.", member,
                 static_cast<double>(*e.last_msg_ms_ago) / 1000.0);
      }
      if (!e.self && s.connections) {
        b_.Gauge("ovn_raft_member_connected",
                 "1 while this server has an established Raft connection with the member.", member,
                 Bool(established.count(e.server_id) > 0));
      }
      Num("ovn_raft_member_next_index", "Next log index the leader will send to the member.",
          member, e.next_index);
      Num("ovn_raft_member_match_index", "Highest log index known replicated on the member.",
          member, e.match_index);
      if (e.phase != ServerPhase::kStable && changing.insert(e.server_id).second) {
        Change(name, server_id, e.server_id, e.address.raw, ServerPhaseName(e.phase));
      }
    }
    // A server being added is not in "Servers:" until its catch-up ends.
    for (const auto& c : s.adding_servers) {
      if (changing.insert(c.server_id).second) {
        Change(name, server_id, c.server_id, c.address.raw, AddingPhase(c.phase_text));
      }
    }
  }

  void Change(const std::string& name, const std::string& server_id, const std::string& member,
              const std::string& address, const std::string& phase) {
    b_.Gauge("ovn_raft_member_change_info",
             "A member being added or removed, with its phase; always 1.",
             {{"db", name},
              {"server_id", server_id},
              {"member_id", member},
              {"address", address},
              {"phase", phase}},
             1);
  }

  void Num(std::string_view metric, std::string_view help, const Labels& labels,
           const std::optional<std::uint64_t>& v) {
    if (v) b_.Gauge(metric, help, labels, static_cast<double>(*v));
  }

  std::int64_t now_ms_;
  FamilyBuilder b_;  // room for 128 families, more than a page of two databases has
};

}  // namespace

std::vector<prometheus::MetricFamily> BuildRaftMetrics(
    const Snapshot& snapshot, const ErrorCounts& errors, std::uint64_t rounds,
    const ExpectedCluster& expected, std::vector<prometheus::MetricFamily> reuse) {
  RaftMetrics m(snapshot, std::move(reuse));
  for (const auto& db : snapshot.databases) m.Database(db, expected);
  m.Errors(snapshot.databases, errors);
  m.Rounds(rounds);
  return m.Take();
}

}  // namespace ovn_raft
