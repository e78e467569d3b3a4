#include "parsers/status_json.h"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace ovn_raft {
namespace {

template <typename Writer>
class StatusWriter {
 public:
  explicit StatusWriter(Writer& w) : w_(w) {}

  void Write(const ClusterStatus& s) {
    w_.StartObject();
    Str("nickname", s.nickname);
    Str("name", s.name);
    Key("cluster_id_known");
    w_.Bool(s.cluster_id_known);
    Str("cluster_id", s.cluster_id);
    Str("cluster_uuid", s.cluster_uuid);
    Str("server_id", s.server_id);
    Str("server_uuid", s.server_uuid);
    if (s.address) {
      Key("address");
      Addr(*s.address);
    }
    if (s.status) Str("status", std::string(MemberStatusName(*s.status)));
    Str("status_text", s.status_text);
    if (s.remotes_for_joining) {
      Key("remotes_for_joining");
      w_.StartArray();
      for (const auto& r : *s.remotes_for_joining) w_.String(r.c_str());
      w_.EndArray();
    }
    Key("adding_servers");
    w_.StartArray();
    for (const auto& c : s.adding_servers) Change(c);
    w_.EndArray();
    if (s.removing_server) {
      Key("removing_server");
      Change(*s.removing_server);
    }
    if (s.role) Str("role", std::string(RoleName(*s.role)));
    Num("term", s.term);
    Str("leader", s.leader);
    Str("vote", s.vote);
    Num("last_election_started_ms_ago", s.last_election_started_ms_ago);
    if (s.last_election_reason)
      Str("last_election_reason", std::string(ElectionReasonName(*s.last_election_reason)));
    Num("last_election_won_ms_ago", s.last_election_won_ms_ago);
    Num("election_timer_ms", s.election_timer_ms);
    Num("election_timer_target_ms", s.election_timer_target_ms);
    Num("log_first_index", s.log_first_index);
    Num("log_next_index", s.log_next_index);
    Num("entries_not_committed", s.entries_not_committed);
    Num("entries_not_applied", s.entries_not_applied);
    if (s.connections) {
      Key("connections");
      w_.StartArray();
      for (const auto& c : *s.connections) {
        w_.StartObject();
        Str("direction", std::string(c.outbound ? "outbound" : "inbound"));
        Str("peer", c.peer);
        Key("peer_known");
        w_.Bool(c.peer_known());
        Key("connected");
        w_.Bool(c.connected);
        w_.EndObject();
      }
      w_.EndArray();
    }
    Num("disconnections", s.disconnections);
    if (s.servers) {
      Key("servers");
      w_.StartArray();
      for (const auto& e : *s.servers) Server(e);
      w_.EndArray();
    }
    Key("warnings");
    w_.StartArray();
    for (const auto& warning : s.warnings) {
      w_.StartObject();
      Key("line");
      w_.Int(warning.line);
      Str("text", warning.text);
      Str("reason", warning.reason);
      w_.EndObject();
    }
    w_.EndArray();
    if (s.entries_dropped > 0 || s.servers_dropped > 0) {
      Key("entries_dropped");
      w_.Uint64(s.entries_dropped);
      Key("servers_dropped");
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
    Str("raw", a.raw);
    Str("scheme", a.scheme);
    Str("host", a.host);
    if (a.port) {
      w_.Key("port");
      w_.Uint(*a.port);
    }
    w_.EndObject();
  }
  void Change(const MembershipChange& c) {
    w_.StartObject();
    Str("nickname", c.nickname);
    Str("server_id", c.server_id);
    Key("address");
    Addr(c.address);
    Str("phase", c.phase_text);
    w_.EndObject();
  }
  void Server(const ServerEntry& e) {
    w_.StartObject();
    Str("nickname", e.nickname);
    Str("server_id", e.server_id);
    Key("address");
    Addr(e.address);
    Key("self");
    w_.Bool(e.self);
    Str("phase", std::string(ServerPhaseName(e.phase)));
    Str("voted_for", e.voted_for);
    Num("next_index", e.next_index);
    Num("match_index", e.match_index);
    Num("last_msg_ms_ago", e.last_msg_ms_ago);
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
