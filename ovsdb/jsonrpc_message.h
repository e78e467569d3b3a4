#pragma once

// Encoding of the two requests the exporter sends and decoding of their replies. Pure: the
// socket side lives in exporter/jsonrpc_client.*.

#include <rapidjson/document.h>

#include <string>
#include <string_view>
#include <vector>

#include "ovsdb/read_error.h"
#include "parsers/server_database.h"

namespace ovn_raft {

// {"method":METHOD,"params":[PARAMS...],"id":ID}: the unixctl form, every param a string.
std::string EncodeUnixctlRequest(std::string_view method, const std::vector<std::string>& params,
                                 int id);

// A read-only `transact` selecting `database`'s row of the _Server database's Database table
// (small columns only).
std::string EncodeServerDatabaseSelect(std::string_view database, int id);

// Rows accepted in the select's reply: it names one database.
inline constexpr std::size_t kMaxServerDatabaseRows = 4;

// One framed message, parsed once: classified, then decoded, from the same document.
using JsonMessage = rapidjson::Document;
ReadResult<JsonMessage> ParseJsonMessage(std::string_view message);

// What a message is to a caller waiting for reply `id`.
enum class MessageKind { kReplyToUs, kOther };
ReadResult<MessageKind> ClassifyMessage(const JsonMessage& message, int id);

// The "result" string of a unixctl reply, or kRpcError with the server's "error" text.
ReadResult<std::string> DecodeUnixctlReply(const JsonMessage& message);

// The rows of the _Server.Database select, or the error the server or the JSON gave.
ReadResult<std::vector<ServerDatabase>> DecodeServerDatabaseReply(const JsonMessage& message);

}  // namespace ovn_raft
