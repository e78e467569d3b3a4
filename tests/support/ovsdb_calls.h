#pragma once

// One-call forms of the ovsdb client for tests: connect, call, close; and the message decoders
// from text. The exporter itself batches calls (ExchangeAll) and parses each message once.

#include <string>
#include <string_view>
#include <vector>

#include "ovsdb/jsonrpc_client.h"
#include "ovsdb/jsonrpc_message.h"

namespace ovn_raft {

ReadResult<std::string> UnixctlCall(const std::string& ctl_path, std::string_view method,
                                    const std::vector<std::string>& params,
                                    const CallOptions& options);
// The _Server row of `database`.
ReadResult<std::vector<ServerDatabase>> SelectServerDatabases(const std::string& db_socket_path,
                                                              const std::string& database,
                                                              const CallOptions& options);

ReadResult<MessageKind> ClassifyMessage(std::string_view message, int id);
ReadResult<std::string> DecodeUnixctlReply(std::string_view message);
ReadResult<std::vector<ServerDatabase>> DecodeServerDatabaseReply(std::string_view message);

}  // namespace ovn_raft
