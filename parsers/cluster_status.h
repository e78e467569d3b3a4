#pragma once

// What one ovsdb-server says about its Raft cluster in `cluster/status`, as plain data.
// Every field a given OVS version may not print is std::optional: absent means "not reported",
// never "zero". Produced by ParseClusterStatus(); rendered by ClusterStatusToJson().

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ovn_raft {

// "tcp:10.0.0.1:6643", "ssl:[fd00::1]:6643", "tcp:ovn-central-0.ovn:6643", "unix:/run/x".
struct Address {
  std::string raw;                    // exactly as printed
  std::string scheme;                 // tcp | ssl | unix | ...
  std::string host;                   // IP (IPv6 without brackets), DNS name, or unix path
  std::optional<std::uint16_t> port;  // absent for unix sockets
};

enum class MemberStatus { kClusterMember, kJoining, kLeaving, kLeft, kFailed, kDisconnected };
enum class Role { kLeader, kCandidate, kFollower };
// A server's place in a membership change. kStable is printed as nothing at all.
enum class ServerPhase { kStable, kCatchup, kCaughtUp, kCommitting, kRemoving };
enum class ElectionReason { kTimeout, kLeadershipTransfer };

// One entry of "Connections:". "->abcd" is outbound, "<-abcd" inbound, parentheses mean not
// connected, and peer "0000" means the peer's ID is not known yet.
struct Connection {
  bool outbound = false;
  std::string peer;  // short ID as printed (4 hex), "0000" when unknown
  bool connected = false;
  bool peer_known() const { return peer != "0000"; }
};

// "Adding server a1b2 (a1b2 at tcp:...) (adding: catchup)" / "Removing server ...", leader only.
struct MembershipChange {
  std::string nickname;
  std::string server_id;
  Address address;
  std::string phase_text;  // as printed, e.g. "adding: catchup"
};

// One line of the "Servers:" block: this server's view of one member.
struct ServerEntry {
  std::string nickname;
  std::string server_id;  // short ID (4 hex)
  Address address;
  bool self = false;
  ServerPhase phase = ServerPhase::kStable;
  std::optional<std::string> voted_for;          // printed only while this server is a candidate
  std::optional<std::uint64_t> next_index;       // printed only by the leader
  std::optional<std::uint64_t> match_index;      // printed only by the leader
  std::optional<std::uint64_t> last_msg_ms_ago;  // OVS >= 2.15, once a message was received
};

// A line the parser did not understand; the parse goes on without it.
struct ParseWarning {
  int line = 0;  // 1-based line number in the input
  std::string text;
  std::string reason;
};

struct ClusterStatus {
  std::optional<std::string> nickname;
  std::optional<std::string> name;
  bool cluster_id_known = false;  // false for "Cluster ID: not yet known" (joining) or no line
  std::optional<std::string> cluster_id;    // short (4 hex)
  std::optional<std::string> cluster_uuid;  // full UUID
  std::optional<std::string> server_id;     // short (4 hex)
  std::optional<std::string> server_uuid;   // full UUID
  std::optional<Address> address;
  std::optional<MemberStatus> status;
  std::optional<std::string> status_text;  // as printed, also when unknown to this parser
  std::optional<std::vector<std::string>> remotes_for_joining;  // joining only
  std::vector<MembershipChange> adding_servers;
  std::optional<MembershipChange> removing_server;
  std::optional<Role> role;
  std::optional<std::uint64_t> term;
  std::optional<std::string> leader;                          // "self", "unknown" or a short ID
  std::optional<std::string> vote;                            // "self", "unknown" or a short ID
  std::optional<std::uint64_t> last_election_started_ms_ago;  // OVS >= 2.15
  std::optional<ElectionReason> last_election_reason;
  std::optional<std::uint64_t> last_election_won_ms_ago;  // OVS >= 2.15
  std::optional<std::uint64_t> election_timer_ms;         // OVS >= 2.12
  std::optional<std::uint64_t> election_timer_target_ms;  // "(changing to M)", leader only
  std::optional<std::uint64_t> log_first_index;
  std::optional<std::uint64_t> log_next_index;
  std::optional<std::uint64_t> entries_not_committed;
  std::optional<std::uint64_t> entries_not_applied;
  std::optional<std::vector<Connection>> connections;
  std::optional<std::uint64_t> disconnections;  // OVS >= 2.15
  std::optional<std::vector<ServerEntry>> servers;
  std::vector<ParseWarning> warnings;
  // Every list above keeps at most kMaxListEntries entries: a reply of endless junk or
  // "Adding server" lines must not grow the process or the page. The rest are counted here,
  // servers apart (the reader counts them against --ovsdb.max-members).
  std::uint64_t servers_dropped = 0;
  std::uint64_t entries_dropped = 0;
};

constexpr std::size_t kMaxListEntries = 4096;

// Stable snake_case names, used in JSON and as metric label values.
const char* MemberStatusName(MemberStatus status);
const char* RoleName(Role role);
const char* ServerPhaseName(ServerPhase phase);
const char* ElectionReasonName(ElectionReason reason);

}  // namespace ovn_raft
