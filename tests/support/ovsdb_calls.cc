#include "support/ovsdb_calls.h"

namespace ovn_raft {

ReadResult<std::string> UnixctlCall(const std::string& ctl_path, std::string_view method,
                                    const std::vector<std::string>& params,
                                    const CallOptions& options) {
  JsonRpcConnection connection(ctl_path);
  std::vector<JsonRpcCall> calls;
  calls.push_back(UnixctlRequest(connection, method, params));
  ExchangeAll(calls, options);
  return UnixctlResult(calls[0]);
}

ReadResult<std::vector<ServerDatabase>> SelectServerDatabases(const std::string& db_socket_path,
                                                              const std::string& database,
                                                              const CallOptions& options) {
  JsonRpcConnection connection(db_socket_path);
  std::vector<JsonRpcCall> calls;
  calls.push_back(ServerDatabasesRequest(connection, database));
  ExchangeAll(calls, options);
  return ServerDatabasesResult(calls[0]);
}

ReadResult<MessageKind> ClassifyMessage(std::string_view message, int id) {
  auto doc = ParseJsonMessage(message);
  if (!doc) return doc.error();
  return ClassifyMessage(doc.value(), id);
}

ReadResult<std::string> DecodeUnixctlReply(std::string_view message) {
  auto doc = ParseJsonMessage(message);
  if (!doc) return doc.error();
  return DecodeUnixctlReply(doc.value());
}

ReadResult<std::vector<ServerDatabase>> DecodeServerDatabaseReply(std::string_view message) {
  auto doc = ParseJsonMessage(message);
  if (!doc) return doc.error();
  return DecodeServerDatabaseReply(doc.value());
}

}  // namespace ovn_raft
