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

void WriteTime(JsonWriter& w, const char* key, std::chrono::system_clock::time_point t) {
  w.Key(key);
  w.Double(std::chrono::duration<double>(t.time_since_epoch()).count());
}

// memory/show as the server printed it, by key, and what the exporter did not understand.
void WriteMemory(JsonWriter& w, const MemoryUsage& m) {
  w.Key("memory");
  w.StartObject();
  for (std::size_t i = 0; i < kMemoryKeyCount; ++i) {
    if (!m.values[i]) continue;
    w.Key(MemoryKeyName(static_cast<MemoryKey>(i)));
    w.Uint64(*m.values[i]);
  }
  if (!m.unknown_keys.empty() || m.unknown_dropped || m.malformed) {
    w.Key("unknown_keys");
    w.StartArray();
    for (const auto& key : m.unknown_keys)
      w.String(key.data(), static_cast<rapidjson::SizeType>(key.size()));
    w.EndArray();
    w.Key("unknown_keys_dropped");
    w.Uint64(m.unknown_dropped);
    w.Key("malformed");
    w.Uint64(m.malformed);
  }
  w.EndObject();
}

}  // namespace

std::string SnapshotToJson(const Snapshot& snapshot, const SocketDiscovery* discovery) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteTime(w, "taken_at", snapshot.taken_at);
  if (discovery) {
    w.Key("socket_discovery");
    w.StartObject();
    w.Key("tried");
    w.StartArray();
    for (const auto& dir : discovery->tried) w.String(dir.c_str());
    w.EndArray();
    if (discovery->found_in.empty()) {
      w.Key("found_in");
      w.Null();
    } else {
      WriteString(w, "found_in", discovery->found_in);
    }
    w.EndObject();
  }
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
    if (r.server_seen_since) WriteTime(w, "server_seen_since", *r.server_seen_since);
    if (r.log_uncompacted_since) WriteTime(w, "log_uncompacted_since", *r.log_uncompacted_since);
    if (r.memory) WriteMemory(w, *r.memory);
    if (r.memory_error) WriteError(w, "memory_error", *r.memory_error);
    if (r.storage) {
      w.Key("storage");
      w.StartObject();
      w.Key("ok");
      w.Bool(r.storage->ok);
      if (!r.storage->ok) WriteString(w, "error", r.storage->error);
      w.EndObject();
    }
    if (r.storage_error) WriteError(w, "storage_error", *r.storage_error);
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
