#pragma once

// The field names of the /status document, in one place: the exporter writes them
// (exporter/status_document.cc, and parsers/status_json.cc for each parsed status, which
// parse-status prints too) and ovn-raft-report reads them (consensus/member_report.cc). They are
// a stable, documented interface (docs/status-json.md): rename one here and every writer and
// reader follows.
//
//   { taken_at, expected_cluster,
//     databases: [ { name, ctl, sock, up, ovs_version, error, server, status, ... } ] }

namespace ovn_raft::status_keys {

// The document.
inline constexpr char kTakenAt[] = "taken_at";
inline constexpr char kDatabases[] = "databases";
// Where the databases were found, when --ovsdb.database was not given.
inline constexpr char kSocketDiscovery[] = "socket_discovery";
namespace socket_discovery {
inline constexpr char kTried[] = "tried";
inline constexpr char kFoundIn[] = "found_in";        // null when none of the places had a database
inline constexpr char kFilesTried[] = "files_tried";  // the same for the database files
inline constexpr char kFilesFoundIn[] = "files_found_in";
}  // namespace socket_discovery

// What the exporter was told to expect of every cluster (--cluster.expected-members and
// --cluster.expected-hosts).
inline constexpr char kExpectedCluster[] = "expected_cluster";
namespace expected_cluster {
inline constexpr char kSize[] = "size";    // null when no expected size was given
inline constexpr char kHosts[] = "hosts";  // empty when none were given
// false when the size is unknown: the too-few and too-many member checks are off here.
inline constexpr char kSizeChecks[] = "size_checks";
}  // namespace expected_cluster

// One database's reading.
namespace database {
inline constexpr char kName[] = "name";
inline constexpr char kCtl[] = "ctl";
inline constexpr char kSock[] = "sock";
inline constexpr char kUp[] = "up";  // its Raft status was read (ovn_raft_up says more)
// clustered, standalone or relay (database_model.h), when known
inline constexpr char kModel[] = "model";
inline constexpr char kOvsVersion[] = "ovs_version";
inline constexpr char kError[] = "error";  // an error object, as the others below
inline constexpr char kServerError[] = "server_error";
inline constexpr char kServerSeenSince[] = "server_seen_since";
inline constexpr char kLogUncompactedSince[] = "log_uncompacted_since";
inline constexpr char kMemory[] = "memory";
inline constexpr char kMemoryError[] = "memory_error";
inline constexpr char kStorage[] = "storage";
inline constexpr char kStorageError[] = "storage_error";
inline constexpr char kServer[] = "server";
inline constexpr char kStatus[] = "status";  // the parsed status, keys in `status` below
inline constexpr char kFile[] = "file";      // the watched database file, keys in `file`
inline constexpr char kFileError[] = "file_error";
}  // namespace database

// The database file given in --ovsdb.database, and its filesystem.
namespace file {
inline constexpr char kPath[] = "path";
inline constexpr char kSizeBytes[] = "size_bytes";
inline constexpr char kFilesystemSizeBytes[] = "filesystem_size_bytes";
inline constexpr char kFilesystemAvailBytes[] = "filesystem_avail_bytes";
}  // namespace file

// A failed read: its reason (the errors_total label) and its message.
namespace error {
inline constexpr char kReason[] = "reason";
inline constexpr char kMessage[] = "message";
}  // namespace error

// memory/show: the server's own keys, then what the exporter did not understand.
namespace memory {
inline constexpr char kUnknownKeys[] = "unknown_keys";
inline constexpr char kUnknownKeysDropped[] = "unknown_keys_dropped";
inline constexpr char kMalformed[] = "malformed";
}  // namespace memory

namespace storage {
inline constexpr char kOk[] = "ok";
inline constexpr char kError[] = "error";
}  // namespace storage

// The _Server database's row.
namespace server {
inline constexpr char kModel[] = "model";
inline constexpr char kConnected[] = "connected";
inline constexpr char kLeader[] = "leader";
inline constexpr char kCid[] = "cid";
inline constexpr char kSid[] = "sid";
inline constexpr char kIndex[] = "index";
}  // namespace server

// The parsed cluster/status (the parse-status JSON).
namespace status {
inline constexpr char kNickname[] = "nickname";
inline constexpr char kName[] = "name";
inline constexpr char kClusterIdKnown[] = "cluster_id_known";
inline constexpr char kClusterId[] = "cluster_id";
inline constexpr char kClusterUuid[] = "cluster_uuid";
inline constexpr char kServerId[] = "server_id";
inline constexpr char kServerUuid[] = "server_uuid";
inline constexpr char kAddress[] = "address";
inline constexpr char kStatus[] = "status";
inline constexpr char kStatusText[] = "status_text";
inline constexpr char kRemotesForJoining[] = "remotes_for_joining";
inline constexpr char kAddingServers[] = "adding_servers";
inline constexpr char kRemovingServer[] = "removing_server";
inline constexpr char kRole[] = "role";
inline constexpr char kTerm[] = "term";
inline constexpr char kLeader[] = "leader";
inline constexpr char kVote[] = "vote";
inline constexpr char kLastElectionStartedMsAgo[] = "last_election_started_ms_ago";
inline constexpr char kLastElectionReason[] = "last_election_reason";
inline constexpr char kLastElectionWonMsAgo[] = "last_election_won_ms_ago";
inline constexpr char kElectionTimerMs[] = "election_timer_ms";
inline constexpr char kElectionTimerTargetMs[] = "election_timer_target_ms";
inline constexpr char kLogFirstIndex[] = "log_first_index";
inline constexpr char kLogNextIndex[] = "log_next_index";
inline constexpr char kEntriesNotCommitted[] = "entries_not_committed";
inline constexpr char kEntriesNotApplied[] = "entries_not_applied";
inline constexpr char kConnections[] = "connections";
inline constexpr char kDisconnections[] = "disconnections";
inline constexpr char kServers[] = "servers";
inline constexpr char kWarnings[] = "warnings";
inline constexpr char kEntriesDropped[] = "entries_dropped";
inline constexpr char kServersDropped[] = "servers_dropped";
}  // namespace status

// An address: Address:, a member's, a member being added or removed.
namespace address {
inline constexpr char kRaw[] = "raw";
inline constexpr char kScheme[] = "scheme";
inline constexpr char kHost[] = "host";
inline constexpr char kPort[] = "port";
}  // namespace address

// A member being added or removed (Adding server / Removing server).
namespace change {
inline constexpr char kNickname[] = "nickname";
inline constexpr char kServerId[] = "server_id";
inline constexpr char kAddress[] = "address";
inline constexpr char kPhase[] = "phase";
}  // namespace change

// A line of the Servers: block.
namespace server_entry {
inline constexpr char kNickname[] = "nickname";
inline constexpr char kServerId[] = "server_id";
inline constexpr char kAddress[] = "address";
inline constexpr char kSelf[] = "self";
inline constexpr char kPhase[] = "phase";
inline constexpr char kVotedFor[] = "voted_for";
inline constexpr char kNextIndex[] = "next_index";
inline constexpr char kMatchIndex[] = "match_index";
inline constexpr char kLastMsgMsAgo[] = "last_msg_ms_ago";
}  // namespace server_entry

// A Raft connection (Connections:).
namespace connection {
inline constexpr char kDirection[] = "direction";
inline constexpr char kPeer[] = "peer";
inline constexpr char kPeerKnown[] = "peer_known";
inline constexpr char kConnected[] = "connected";
}  // namespace connection

// A line the parser did not understand.
namespace warning {
inline constexpr char kLine[] = "line";
inline constexpr char kText[] = "text";
inline constexpr char kReason[] = "reason";
}  // namespace warning

}  // namespace ovn_raft::status_keys
