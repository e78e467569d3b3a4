#include "ovsdb/jsonrpc_message.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "base/utf8.h"

namespace ovn_raft {
namespace {

using rapidjson::Value;

}  // namespace

ReadResult<JsonMessage> ParseJsonMessage(std::string_view message) {
  rapidjson::Document doc;
  // Iterative: the recursive default would let a reply nested ~100 deep overflow a civetweb
  // worker's 100 KiB stack. (The document's pool allocator frees it without recursing.)
  doc.Parse<rapidjson::kParseIterativeFlag>(message.data(), message.size());
  if (doc.HasParseError()) {
    return Error{ErrorCode::kInvalidJson, std::string("invalid JSON at offset ") +
                                              std::to_string(doc.GetErrorOffset()) + ": " +
                                              rapidjson::GetParseError_En(doc.GetParseError())};
  }
  if (!doc.IsObject()) return Error{ErrorCode::kProtocolError, "JSON-RPC message is not an object"};
  return doc;
}

namespace {

std::string Describe(const Value& v) {
  if (v.IsString()) {
    // ovsdb-server ends unixctl errors with a newline ("unknown cluster\n").
    std::string text = ValidUtf8(std::string_view(v.GetString(), v.GetStringLength()));
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
  }
  // Writing a value back out recurses into it: only scalars, nested values are named.
  if (v.IsObject()) return "a JSON object";
  if (v.IsArray()) return "a JSON array";
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  v.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize()).substr(0, 500);
}

// A reply's "error" member, when set (not null): unixctl sends a string, OVSDB an object.
// An error text is kept, logged and shown on /status: a server's error string of megabytes
// must not become a log line as long. The start says what went wrong.
constexpr std::size_t kMaxErrorText = 512;

// Cut on a character boundary: a cut inside one would leave invalid UTF-8 in /status and logs.
std::string Bounded(const std::string& text) { return BoundedUtf8(text, kMaxErrorText); }

std::optional<std::string> ReplyError(const Value& doc) {
  const auto it = doc.FindMember("error");
  if (it == doc.MemberEnd() || it->value.IsNull()) return std::nullopt;
  if (it->value.IsObject() && it->value.HasMember("error")) {
    std::string text = Describe(it->value["error"]);
    if (it->value.HasMember("details")) text += ": " + Describe(it->value["details"]);
    return Bounded(text);
  }
  return Bounded(Describe(it->value));
}

// A _Server string (a name, a model, a UUID) is a few dozen bytes; a longer one is cut.
constexpr std::size_t kMaxServerField = 128;

// OVSDB UUIDs are ["uuid","..."]; an empty optional value is ["set",[]].
std::optional<std::string> OptionalUuid(const Value& v) {
  if (v.IsArray() && v.Size() == 2 && v[0].IsString() &&
      std::string_view(v[0].GetString()) == "uuid" && v[1].IsString()) {
    return BoundedUtf8({v[1].GetString(), v[1].GetStringLength()}, kMaxServerField);
  }
  return std::nullopt;
}

std::optional<std::uint64_t> OptionalIndex(const Value& v) {
  if (v.IsUint64()) return v.GetUint64();
  return std::nullopt;
}

}  // namespace

std::string EncodeUnixctlRequest(std::string_view method, const std::vector<std::string>& params,
                                 int id) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("method");
  w.String(method.data(), static_cast<rapidjson::SizeType>(method.size()));
  w.Key("params");
  w.StartArray();
  for (const auto& p : params) w.String(p.data(), static_cast<rapidjson::SizeType>(p.size()));
  w.EndArray();
  w.Key("id");
  w.Int(id);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string EncodeServerDatabaseSelect(std::string_view database, int id) {
  // Built with a writer: the name is the operator's and is escaped as JSON.
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("method");
  w.String("transact");
  w.Key("params");
  w.StartArray();
  w.String("_Server");
  w.StartObject();
  w.Key("op");
  w.String("select");
  w.Key("table");
  w.String("Database");
  w.Key("where");
  w.StartArray();
  w.StartArray();
  w.String("name");
  w.String("==");
  w.String(database.data(), static_cast<rapidjson::SizeType>(database.size()));
  w.EndArray();
  w.EndArray();
  w.Key("columns");
  w.StartArray();
  for (const char* column : {"name", "model", "connected", "leader", "cid", "sid", "index"}) {
    w.String(column);
  }
  w.EndArray();
  w.EndObject();
  w.EndArray();
  w.Key("id");
  w.Int(id);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

ReadResult<MessageKind> ClassifyMessage(const JsonMessage& d, int id) {
  // Requests and notifications from the server (e.g. an "echo" probe) are not replies.
  if (d.HasMember("method")) return MessageKind::kOther;
  const auto it = d.FindMember("id");
  if (it == d.MemberEnd()) return Error{ErrorCode::kProtocolError, "reply without an id"};
  if (it->value.IsInt() && it->value.GetInt() == id) return MessageKind::kReplyToUs;
  return MessageKind::kOther;
}

ReadResult<std::string> DecodeUnixctlReply(const JsonMessage& d) {
  if (auto error = ReplyError(d)) return Error{ErrorCode::kRpcError, *error};
  const auto it = d.FindMember("result");
  if (it == d.MemberEnd() || !it->value.IsString()) {
    return Error{ErrorCode::kProtocolError, "unixctl reply without a string result"};
  }
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

ReadResult<std::vector<ServerDatabase>> DecodeServerDatabaseReply(const JsonMessage& d) {
  if (auto error = ReplyError(d)) return Error{ErrorCode::kRpcError, *error};
  const auto result = d.FindMember("result");
  if (result == d.MemberEnd() || !result->value.IsArray() || result->value.Empty() ||
      !result->value[0].IsObject()) {
    return Error{ErrorCode::kProtocolError, "transact reply without an operation result"};
  }
  const Value& op = result->value[0];
  if (auto error = ReplyError(op)) return Error{ErrorCode::kRpcError, *error};
  const auto rows = op.FindMember("rows");
  if (rows == op.MemberEnd() || !rows->value.IsArray()) {
    return Error{ErrorCode::kProtocolError, "select result without rows"};
  }
  // The select names one database: a server that sends more rows than that is not believed,
  // and is not parsed row by row either.
  if (rows->value.Size() > kMaxServerDatabaseRows) {
    return Error{ErrorCode::kProtocolError,
                 "select of one database returned " + std::to_string(rows->value.Size()) +
                     " rows, more than " + std::to_string(kMaxServerDatabaseRows)};
  }
  std::vector<ServerDatabase> out;
  for (const Value& row : rows->value.GetArray()) {
    if (!row.IsObject()) return Error{ErrorCode::kProtocolError, "row is not an object"};
    ServerDatabase db;
    for (const auto& m : row.GetObject()) {
      const std::string_view key(m.name.GetString(), m.name.GetStringLength());
      const Value& v = m.value;
      if (key == "name" && v.IsString()) {
        db.name = BoundedUtf8({v.GetString(), v.GetStringLength()}, kMaxServerField);
      } else if (key == "model" && v.IsString()) {
        db.model = BoundedUtf8({v.GetString(), v.GetStringLength()}, kMaxServerField);
      } else if (key == "connected" && v.IsBool()) {
        db.connected = v.GetBool();
      } else if (key == "leader" && v.IsBool()) {
        db.leader = v.GetBool();
      } else if (key == "cid") {
        db.cid = OptionalUuid(v);
      } else if (key == "sid") {
        db.sid = OptionalUuid(v);
      } else if (key == "index") {
        db.index = OptionalIndex(v);
      }
    }
    if (db.name.empty()) return Error{ErrorCode::kProtocolError, "Database row without a name"};
    out.push_back(std::move(db));
  }
  return out;
}

}  // namespace ovn_raft
