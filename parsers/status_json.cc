#include "parsers/status_json.h"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "parsers/status_keys.h"

namespace ovn_raft {
namespace {

namespace keys = status_keys;

template <typename Writer>
class StatusWriter {
 public:
  explicit StatusWriter(Writer& w) : w_(w) {}

  void Write(const ClusterStatus& s) {
    w_.StartObject();
    Str(keys::status::kNickname, s.nickname);
    Str(keys::status::kName, s.name);
    Key(keys::status::kClusterIdKnown);
    w_.Bool(s.cluster_id_known);
    Str(keys::status::kClusterId, s.cluster_id);
    Str(keys::status::kClusterUuid, s.cluster_uuid);
    Str(keys::status::kServerId, s.server_id);
    Str(keys::status::kServerUuid, s.server_uuid);
    if (s.address) {
      Key(keys::status::kAddress);
      Addr(*s.address);
    }
    if (s.status) Str(keys::status::kStatus, std::string(MemberStatusName(*s.status)));
    Str(keys::status::kStatusText, s.status_text);
    if (s.remotes_for_joining) {
      Key(keys::status::kRemotesForJoining);
      w_.StartArray();
      for (const auto& r : *s.remotes_for_joining) w_.String(r.c_str());
      w_.EndArray();
    }
    Key(keys::status::kAddingServers);
    w_.StartArray();
    for (const auto& c : s.adding_servers) Change(c);
    w_.EndArray();
    if (s.removing_server) {
      Key(keys::status::kRemovingServer);
      Change(*s.removing_server);
    }
    if (s.role) Str(keys::status::kRole, std::string(RoleName(*s.role)));
    Num(keys::status::kTerm, s.term);
    Str(keys::status::kLeader, s.leader);
    Str(keys::status::kVote, s.vote);
    Num(keys::status::kLastElectionStartedMsAgo, s.last_election_started_ms_ago);
    if (s.last_election_reason)
      Str(keys::status::kLastElectionReason,
          std::string(ElectionReasonName(*s.last_election_reason)));
    Num(keys::status::kLastElectionWonMsAgo, s.last_election_won_ms_ago);
    Num(keys::status::kElectionTimerMs, s.election_timer_ms);
    Num(keys::status::kElectionTimerTargetMs, s.election_timer_target_ms);
    Num(keys::status::kLogFirstIndex, s.log_first_index);
    Num(keys::status::kLogNextIndex, s.log_next_index);
    Num(keys::status::kEntriesNotCommitted, s.entries_not_committed);
    Num(keys::status::kEntriesNotApplied, s.entries_not_applied);
    if (s.connections) {
      Key(keys::status::kConnections);
      w_.StartArray();
      for (const auto& c : *s.connections) {
        w_.StartObject();
        Str(keys::connection::kDirection, std::string(c.outbound ? "outbound" : "inbound"));
        Str(keys::connection::kPeer, c.peer);
        Key(keys::connection::kPeerKnown);
        w_.Bool(c.peer_known());
        Key(keys::connection::kConnected);
        w_.Bool(c.connected);
        w_.EndObject();
      }
      w_.EndArray();
    }
    Num(keys::status::kDisconnections, s.disconnections);
    if (s.servers) {
      Key(keys::status::kServers);
      w_.StartArray();
      for (const auto& e : *s.servers) Server(e);
      w_.EndArray();
    }
    Key(keys::status::kWarnings);
    w_.StartArray();
    for (const auto& warning : s.warnings) {
      w_.StartObject();
      Key(keys::warning::kLine);
      w_.Int(warning.line);
      Str(keys::warning::kText, warning.text);
      Str(keys::warning::kReason, warning.reason);
      w_.EndObject();
    }
    w_.EndArray();
    if (s.entries_dropped > 0 || s.servers_dropped > 0) {
      Key(keys::status::kEntriesDropped);
      w_.Uint64(s.entries_dropped);
      Key(keys::status::kServersDropped);
      w_.Uint64(s.servers_dropped);
    }
    w_.EndObject();
  }

 private:
  void Key(const char* k) { w_.Key(k); }
  void Str(const char* k, const std::string& v) {
    w_.Key(k);
    w_.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
  }
  void Str(const char* k, const std::optional<std::string>& v) {
    if (v) Str(k, *v);
  }
  void Num(const char* k, const std::optional<std::uint64_t>& v) {
    if (!v) return;
    w_.Key(k);
    w_.Uint64(*v);
  }
  void Addr(const Address& a) {
    w_.StartObject();
    Str(keys::address::kRaw, a.raw);
    Str(keys::address::kScheme, a.scheme);
    Str(keys::address::kHost, a.host);
    if (a.port) {
      w_.Key(keys::address::kPort);
      w_.Uint(*a.port);
    }
    w_.EndObject();
  }
  void Change(const MembershipChange& c) {
    w_.StartObject();
    Str(keys::change::kNickname, c.nickname);
    Str(keys::change::kServerId, c.server_id);
    Key(keys::change::kAddress);
    Addr(c.address);
    Str(keys::change::kPhase, c.phase_text);
    w_.EndObject();
  }
  void Server(const ServerEntry& e) {
    w_.StartObject();
    Str(keys::server_entry::kNickname, e.nickname);
    Str(keys::server_entry::kServerId, e.server_id);
    Key(keys::server_entry::kAddress);
    Addr(e.address);
    Key(keys::server_entry::kSelf);
    w_.Bool(e.self);
    Str(keys::server_entry::kPhase, std::string(ServerPhaseName(e.phase)));
    Str(keys::server_entry::kVotedFor, e.voted_for);
    Num(keys::server_entry::kNextIndex, e.next_index);
    Num(keys::server_entry::kMatchIndex, e.match_index);
    Num(keys::server_entry::kLastMsgMsAgo, e.last_msg_ms_ago);
    w_.EndObject();
  }

  Writer& w_;
};

}  // namespace

std::string ClusterStatusToJson(const ClusterStatus& status, bool pretty) {
  rapidjson::StringBuffer buffer;
  if (pretty) {
    rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(buffer);
    writer.SetIndent(' ', 2);
    StatusWriter(writer).Write(status);
  } else {
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    StatusWriter(writer).Write(status);
  }
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace ovn_raft
