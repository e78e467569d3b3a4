#include "consensus/member_report.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <set>
#include <string>

#include "parsers/status_keys.h"

namespace ovn_raft {
namespace {

namespace keys = status_keys;

std::string Str(const rapidjson::Value& o, const char* key) {
  const auto it = o.FindMember(key);
  if (it == o.MemberEnd() || !it->value.IsString()) return "";
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

std::optional<double> Number(const rapidjson::Value& o, const char* key) {
  const auto it = o.FindMember(key);
  if (it == o.MemberEnd() || !it->value.IsNumber()) return std::nullopt;
  return it->value.GetDouble();
}

std::optional<std::uint64_t> Uint(const rapidjson::Value& o, const char* key) {
  const auto it = o.FindMember(key);
  if (it == o.MemberEnd() || !it->value.IsUint64()) return std::nullopt;
  return it->value.GetUint64();
}

}  // namespace

Result<std::vector<MemberReport>, std::string> DecodeStatusJson(const std::string& json,
                                                                const std::string& source) {
  std::vector<MemberReport> out;
  rapidjson::Document d;
  d.Parse<rapidjson::kParseIterativeFlag>(json.c_str(), json.size());
  if (d.HasParseError()) return std::string("not JSON");
  if (!d.IsObject() || !d.HasMember(keys::kDatabases) || !d[keys::kDatabases].IsArray()) {
    return std::string("no \"databases\" array: not an exporter's /status");
  }
  // What is decoded stays bounded whatever the document lists: each entry becomes a report
  // (hundreds of bytes), and a few MiB of "{}," would be millions of them.
  if (d[keys::kDatabases].Size() > kMaxStatusDatabases) {
    return "lists " + std::to_string(d[keys::kDatabases].Size()) + " databases, more than " +
           std::to_string(kMaxStatusDatabases) + ": not an exporter's /status";
  }
  const auto taken_at = Number(d, keys::kTakenAt);
  ExpectedCluster expected;
  if (d.HasMember(keys::kExpectedCluster) && d[keys::kExpectedCluster].IsObject()) {
    namespace ec = keys::expected_cluster;
    const auto& e = d[keys::kExpectedCluster];
    if (e.HasMember(ec::kSize) && e[ec::kSize].IsInt() && e[ec::kSize].GetInt() > 0)
      expected.members = e[ec::kSize].GetInt();
    if (e.HasMember(ec::kHosts) && e[ec::kHosts].IsArray()) {
      for (const auto& h : e[ec::kHosts].GetArray()) {
        if (expected.hosts.size() >= kMaxStatusMembers) break;
        if (h.IsString()) expected.hosts.emplace_back(h.GetString(), h.GetStringLength());
      }
      std::sort(expected.hosts.begin(), expected.hosts.end());
      expected.hosts.erase(std::unique(expected.hosts.begin(), expected.hosts.end()),
                           expected.hosts.end());
    }
  }
  for (const auto& db : d[keys::kDatabases].GetArray()) {
    if (!db.IsObject()) continue;
    MemberReport r;
    const auto seen_since = Number(db, keys::database::kServerSeenSince);
    if (taken_at && seen_since && *taken_at >= *seen_since) r.up_for_s = *taken_at - *seen_since;
    r.source = source;
    r.taken_at = taken_at;
    r.expected = expected;
    r.db = Str(db, keys::database::kName);
    r.ctl = Str(db, keys::database::kCtl);
    r.ovs_version = Str(db, keys::database::kOvsVersion);
    r.model = ParseDatabaseModel(Str(db, keys::database::kModel));
    r.up = db.HasMember(keys::database::kUp) && db[keys::database::kUp].IsBool() &&
           db[keys::database::kUp].GetBool();
    if (db.HasMember(keys::database::kError) && db[keys::database::kError].IsObject())
      r.error = Str(db[keys::database::kError], keys::error::kMessage);
    if (db.HasMember(keys::database::kServer) && db[keys::database::kServer].IsObject()) {
      const auto& server = db[keys::database::kServer];
      if (server.HasMember(keys::server::kConnected) && server[keys::server::kConnected].IsBool())
        r.connected = server[keys::server::kConnected].GetBool();
    }
    if (db.HasMember(keys::database::kStatus) && db[keys::database::kStatus].IsObject()) {
      namespace st = keys::status;
      const auto& s = db[keys::database::kStatus];
      r.cluster_id = Str(s, st::kClusterId);
      r.server_id = Str(s, st::kServerId);
      if (s.HasMember(st::kAddress) && s[st::kAddress].IsObject())
        r.address = Str(s[st::kAddress], keys::address::kRaw);
      r.status = Str(s, st::kStatus);
      r.role = Str(s, st::kRole);
      r.leader = Str(s, st::kLeader);
      if (r.leader == "self") r.leader = r.server_id;
      r.term = Uint(s, st::kTerm);
      r.election_timer_ms = Uint(s, st::kElectionTimerMs);
      r.log_next_index = Uint(s, st::kLogNextIndex);
      r.entries_not_committed = Uint(s, st::kEntriesNotCommitted);
      const bool too_many = (s.HasMember(st::kServers) && s[st::kServers].IsArray() &&
                             s[st::kServers].Size() > kMaxStatusMembers) ||
                            (s.HasMember(st::kConnections) && s[st::kConnections].IsArray() &&
                             s[st::kConnections].Size() > 2 * kMaxStatusMembers);
      if (too_many) {
        r.up = false;
        r.error = "the status lists more than " + std::to_string(kMaxStatusMembers) +
                  " members or twice as many connections; not read";
        out.push_back(std::move(r));
        continue;
      }
      if (s.HasMember(st::kServers) && s[st::kServers].IsArray()) {
        namespace se = keys::server_entry;
        for (const auto& e : s[st::kServers].GetArray()) {
          if (!e.IsObject() || !e.HasMember(se::kAddress) || !e[se::kAddress].IsObject()) continue;
          const std::string id = Str(e, se::kServerId);
          r.view[id] = Str(e[se::kAddress], keys::address::kRaw);
          if (const auto ago = Uint(e, se::kLastMsgMsAgo)) r.heard_ms_ago[id] = *ago;
          if (const auto match = Uint(e, se::kMatchIndex)) r.match_index[id] = *match;
        }
      }
      if (s.HasMember(st::kConnections) && s[st::kConnections].IsArray()) {
        namespace cn = keys::connection;
        for (const auto& c : s[st::kConnections].GetArray()) {
          if (!c.IsObject() || !c.HasMember(cn::kConnected) || !c[cn::kConnected].IsBool())
            continue;
          const std::string peer = Str(c, cn::kPeer);
          if (c[cn::kConnected].GetBool() && peer != "0000") r.established.insert(peer);
        }
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

bool ServedWithoutRaft(const MemberReport& m) {
  return !m.up && m.model && *m.model != DatabaseModel::kClustered;
}

ExpectedCluster ExpectedOf(const ExpectedCluster& given, const std::vector<MemberReport>& members) {
  if (given.size() > 0) return given;
  ExpectedCluster out;
  std::set<std::string> hosts;
  for (const auto& m : members) {
    out.members = std::max(out.members, m.expected.size());
    hosts.insert(m.expected.hosts.begin(), m.expected.hosts.end());
  }
  out.hosts.assign(hosts.begin(), hosts.end());
  return out;
}

std::string MixedReleases(const std::vector<MemberReport>& members) {
  std::map<std::string, int> count;
  for (const auto& m : members) {
    if (!m.ovs_version.empty()) ++count[m.ovs_version];
  }
  if (count.size() < 2) return "";
  std::string out;
  for (const auto& [release, n] : count) {
    out += (out.empty() ? "" : ", ") + release + " (" + std::to_string(n) + ")";
  }
  return out;
}

}  // namespace ovn_raft
