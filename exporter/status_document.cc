#include "exporter/status_document.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <chrono>

#include "parsers/status_json.h"

namespace ovn_raft {
namespace {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

void WriteString(JsonWriter& w, const char* key, const std::string& value) {
  w.Key(key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void WriteError(JsonWriter& w, const char* key, const Error& e) {
  w.Key(key);
  w.StartObject();
  WriteString(w, "reason", ErrorCodeName(e.code));
  WriteString(w, "message", e.message);
  w.EndObject();
}

}  // namespace

std::string SnapshotToJson(const Snapshot& snapshot) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("taken_at");
  w.Double(std::chrono::duration<double>(snapshot.taken_at.time_since_epoch()).count());
  w.Key("databases");
  w.StartArray();
  for (const auto& r : snapshot.databases) {
    w.StartObject();
    WriteString(w, "name", r.target.name);
    WriteString(w, "ctl", r.target.ctl_path);
    WriteString(w, "sock", r.target.sock_path);
    w.Key("up");
    w.Bool(r.up());
    if (r.ovs_version) WriteString(w, "ovs_version", *r.ovs_version);
    if (r.status_error) WriteError(w, "error", *r.status_error);
    if (r.server_error) WriteError(w, "server_error", *r.server_error);
    if (r.server) {
      const auto& s = *r.server;
      w.Key("server");
      w.StartObject();
      WriteString(w, "model", s.model);
      w.Key("connected");
      w.Bool(s.connected);
      w.Key("leader");
      w.Bool(s.leader);
      if (s.cid) WriteString(w, "cid", *s.cid);
      if (s.sid) WriteString(w, "sid", *s.sid);
      if (s.index) {
        w.Key("index");
        w.Uint64(*s.index);
      }
      w.EndObject();
    }
    if (r.status) {
      // The parse-status JSON, written by status_json.cc, embedded as it is.
      const std::string status = ClusterStatusToJson(*r.status, false);
      w.Key("status");
      w.RawValue(status.data(), status.size(), rapidjson::kObjectType);
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace ovn_raft
