#include "consensus/member_report.h"

#include <rapidjson/document.h>

namespace ovn_raft {
namespace {

std::string Str(const rapidjson::Value& o, const char* key) {
  const auto it = o.FindMember(key);
  if (it == o.MemberEnd() || !it->value.IsString()) return "";
  return std::string(it->value.GetString(), it->value.GetStringLength());
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
  if (!d.IsObject() || !d.HasMember("databases") || !d["databases"].IsArray()) {
    return std::string("no \"databases\" array: not an exporter's /status");
  }
  // What is decoded stays bounded whatever the document lists: each entry becomes a report
  // (hundreds of bytes), and a few MiB of "{}," would be millions of them.
  if (d["databases"].Size() > kMaxStatusDatabases) {
    return "lists " + std::to_string(d["databases"].Size()) + " databases, more than " +
           std::to_string(kMaxStatusDatabases) + ": not an exporter's /status";
  }
  for (const auto& db : d["databases"].GetArray()) {
    if (!db.IsObject()) continue;
    MemberReport r;
    r.source = source;
    r.db = Str(db, "name");
    r.ctl = Str(db, "ctl");
    r.ovs_version = Str(db, "ovs_version");
    r.up = db.HasMember("up") && db["up"].IsBool() && db["up"].GetBool();
    if (db.HasMember("error") && db["error"].IsObject()) r.error = Str(db["error"], "message");
    if (db.HasMember("server") && db["server"].IsObject() && db["server"].HasMember("connected") &&
        db["server"]["connected"].IsBool()) {
      r.connected = db["server"]["connected"].GetBool();
    }
    if (db.HasMember("status") && db["status"].IsObject()) {
      const auto& s = db["status"];
      r.cluster_id = Str(s, "cluster_id");
      r.server_id = Str(s, "server_id");
      if (s.HasMember("address") && s["address"].IsObject()) r.address = Str(s["address"], "raw");
      r.status = Str(s, "status");
      r.role = Str(s, "role");
      r.leader = Str(s, "leader");
      if (r.leader == "self") r.leader = r.server_id;
      r.term = Uint(s, "term");
      r.election_timer_ms = Uint(s, "election_timer_ms");
      const bool too_many = (s.HasMember("servers") && s["servers"].IsArray() &&
                             s["servers"].Size() > kMaxStatusMembers) ||
                            (s.HasMember("connections") && s["connections"].IsArray() &&
                             s["connections"].Size() > 2 * kMaxStatusMembers);
      if (too_many) {
        r.up = false;
        r.error = "the status lists more than " + std::to_string(kMaxStatusMembers) +
                  " members or twice as many connections; not read";
        out.push_back(std::move(r));
        continue;
      }
      if (s.HasMember("servers") && s["servers"].IsArray()) {
        for (const auto& e : s["servers"].GetArray()) {
          if (!e.IsObject() || !e.HasMember("address") || !e["address"].IsObject()) continue;
          const std::string id = Str(e, "server_id");
          r.view[id] = Str(e["address"], "raw");
          if (const auto ago = Uint(e, "last_msg_ms_ago")) r.heard_ms_ago[id] = *ago;
        }
      }
      if (s.HasMember("connections") && s["connections"].IsArray()) {
        for (const auto& c : s["connections"].GetArray()) {
          if (!c.IsObject() || !c.HasMember("connected") || !c["connected"].IsBool()) continue;
          const std::string peer = Str(c, "peer");
          if (c["connected"].GetBool() && peer != "0000") r.established.insert(peer);
        }
      }
    }
    out.push_back(std::move(r));
  }
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
