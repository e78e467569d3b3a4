#include "exporter/status_document.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <chrono>
#include <string>
#include <vector>

#include "base/utf8.h"
#include "parsers/status_json.h"
#include "parsers/status_keys.h"

namespace ovn_raft {
namespace {

namespace keys = status_keys;

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

// Every string is made valid UTF-8 here too: a strict JSON reader refuses the whole document
// for one bad byte, whichever path it came by.
void WriteValue(JsonWriter& w, const std::string& value) {
  const std::string valid = ValidUtf8(value);
  w.String(valid.data(), static_cast<rapidjson::SizeType>(valid.size()));
}

void WriteString(JsonWriter& w, const char* key, const std::string& value) {
  w.Key(key);
  WriteValue(w, value);
}

void WriteError(JsonWriter& w, const char* key, const Error& e) {
  w.Key(key);
  w.StartObject();
  WriteString(w, keys::error::kReason, ErrorCodeName(e.code));
  WriteString(w, keys::error::kMessage, e.message);
  w.EndObject();
}

void WriteTime(JsonWriter& w, const char* key, std::chrono::system_clock::time_point t) {
  w.Key(key);
  w.Double(std::chrono::duration<double>(t.time_since_epoch()).count());
}

// memory/show as the server printed it, by key, and what the exporter did not understand.
void WriteMemory(JsonWriter& w, const MemoryUsage& m) {
  w.Key(keys::database::kMemory);
  w.StartObject();
  for (std::size_t i = 0; i < kMemoryKeyCount; ++i) {
    if (!m.values[i]) continue;
    w.Key(MemoryKeyName(static_cast<MemoryKey>(i)));
    w.Uint64(*m.values[i]);
  }
  if (!m.unknown_keys.empty() || m.unknown_dropped || m.malformed) {
    w.Key(keys::memory::kUnknownKeys);
    w.StartArray();
    for (const auto& key : m.unknown_keys) {
      const std::string valid = ValidUtf8(key);
      w.String(valid.data(), static_cast<rapidjson::SizeType>(valid.size()));
    }
    w.EndArray();
    w.Key(keys::memory::kUnknownKeysDropped);
    w.Uint64(m.unknown_dropped);
    w.Key(keys::memory::kMalformed);
    w.Uint64(m.malformed);
  }
  w.EndObject();
}

// Where something was looked for, in order, and where it was found: null when nowhere.
void WriteSearch(JsonWriter& w, const char* tried_key, const std::vector<std::string>& tried,
                 const char* found_key, const std::string& found) {
  w.Key(tried_key);
  w.StartArray();
  for (const auto& dir : tried) w.String(dir.c_str());
  w.EndArray();
  if (found.empty()) {
    w.Key(found_key);
    w.Null();
  } else {
    WriteString(w, found_key, found);
  }
}

// The expected size and hosts; a size of null, and size checks off, when none was given, so
// that a member read on its own says what the rules and the report cannot check for it.
void WriteExpected(JsonWriter& w, const ExpectedCluster& expected) {
  namespace ec = keys::expected_cluster;
  w.Key(keys::kExpectedCluster);
  w.StartObject();
  w.Key(ec::kSize);
  if (expected.size() > 0) {
    w.Int(expected.size());
  } else {
    w.Null();
  }
  w.Key(ec::kHosts);
  w.StartArray();
  for (const auto& host : expected.hosts) WriteValue(w, host);
  w.EndArray();
  w.Key(ec::kSizeChecks);
  w.Bool(expected.size() > 0);
  w.EndObject();
}

}  // namespace

std::string SnapshotToJson(const Snapshot& snapshot, const SocketDiscovery* discovery,
                           const ExpectedCluster& expected) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteTime(w, keys::kTakenAt, snapshot.taken_at);
  WriteExpected(w, expected);
  if (discovery) {
    w.Key(keys::kSocketDiscovery);
    w.StartObject();
    WriteSearch(w, keys::socket_discovery::kTried, discovery->tried,
                keys::socket_discovery::kFoundIn, discovery->found_in);
    WriteSearch(w, keys::socket_discovery::kFilesTried, discovery->files_tried,
                keys::socket_discovery::kFilesFoundIn, discovery->files_found_in);
    w.EndObject();
  }
  w.Key(keys::kDatabases);
  w.StartArray();
  for (const auto& r : snapshot.databases) {
    w.StartObject();
    WriteString(w, keys::database::kName, r.target.name);
    WriteString(w, keys::database::kCtl, r.target.ctl_path);
    WriteString(w, keys::database::kSock, r.target.sock_path);
    // A Raft member's entry, as ovn-raft-report reads it: a standalone or relay database, up
    // on the page, has none, and says what it is in `model`.
    w.Key(keys::database::kUp);
    w.Bool(r.status.has_value());
    if (r.model) WriteString(w, keys::database::kModel, DatabaseModelName(*r.model));
    if (r.ovs_version) WriteString(w, keys::database::kOvsVersion, *r.ovs_version);
    if (r.status_error) WriteError(w, keys::database::kError, *r.status_error);
    if (r.server_error) WriteError(w, keys::database::kServerError, *r.server_error);
    if (r.server_seen_since) WriteTime(w, keys::database::kServerSeenSince, *r.server_seen_since);
    if (r.log_uncompacted_since)
      WriteTime(w, keys::database::kLogUncompactedSince, *r.log_uncompacted_since);
    if (r.memory) WriteMemory(w, *r.memory);
    if (r.memory_error) WriteError(w, keys::database::kMemoryError, *r.memory_error);
    if (r.storage) {
      w.Key(keys::database::kStorage);
      w.StartObject();
      w.Key(keys::storage::kOk);
      w.Bool(r.storage->ok);
      if (!r.storage->ok) WriteString(w, keys::storage::kError, r.storage->error);
      w.EndObject();
    }
    if (r.storage_error) WriteError(w, keys::database::kStorageError, *r.storage_error);
    if (r.file) {
      w.Key(keys::database::kFile);
      w.StartObject();
      WriteString(w, keys::file::kPath, r.target.file_path);
      w.Key(keys::file::kSizeBytes);
      w.Uint64(r.file->file_bytes);
      w.Key(keys::file::kFilesystemSizeBytes);
      w.Uint64(r.file->filesystem_bytes);
      w.Key(keys::file::kFilesystemAvailBytes);
      w.Uint64(r.file->avail_bytes);
      w.EndObject();
    }
    if (r.file_error) WriteError(w, keys::database::kFileError, *r.file_error);
    if (r.server) {
      const auto& s = *r.server;
      w.Key(keys::database::kServer);
      w.StartObject();
      WriteString(w, keys::server::kModel, s.model);
      w.Key(keys::server::kConnected);
      w.Bool(s.connected);
      w.Key(keys::server::kLeader);
      w.Bool(s.leader);
      if (s.cid) WriteString(w, keys::server::kCid, *s.cid);
      if (s.sid) WriteString(w, keys::server::kSid, *s.sid);
      if (s.index) {
        w.Key(keys::server::kIndex);
        w.Uint64(*s.index);
      }
      w.EndObject();
    }
    if (r.status) {
      // The parse-status JSON, written by status_json.cc, embedded as it is.
      const std::string status = ClusterStatusToJson(*r.status, false);
      w.Key(keys::database::kStatus);
      w.RawValue(status.data(), status.size(), rapidjson::kObjectType);
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace ovn_raft
