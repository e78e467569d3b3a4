#pragma once

// The I/O edge towards ovsdb-server: JSON-RPC over unix sockets, the way ovs-appctl talks to a
// `.ctl` socket and OVSDB clients to a `.sock` socket. No fork/exec. Never throws.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ovsdb/jsonrpc_framing.h"
#include "ovsdb/jsonrpc_message.h"
#include "ovsdb/read_error.h"
#include "ovsdb/reply_budget.h"
#include "parsers/server_database.h"

namespace ovn_raft {

// The defaults of --ovsdb.timeout and --ovsdb.max-reply-size, said here once.
inline constexpr std::chrono::milliseconds kDefaultCallTimeout = std::chrono::seconds(2);
inline constexpr std::size_t kDefaultMaxReplyBytes = 8u << 20;

struct CallOptions {
  // One deadline for connect, send and receive together.
  std::chrono::milliseconds timeout = kDefaultCallTimeout;
  // Replies above this are abandoned with kReplyTooLarge (a cluster/status is a few KiB).
  std::size_t max_reply_bytes = kDefaultMaxReplyBytes;
  // Shared with the other calls of a read round (see reply_budget.h); null: none.
  ReplyBudget* budget = nullptr;
};

struct JsonRpcCall;

// A connection kept open across calls, as an OVSDB client keeps its session: a scrape then
// costs ovsdb-server one request, not an accept plus a request. Reconnects once when the server
// closed it meanwhile (restart) and drops it after any failure. One call at a time.
class JsonRpcConnection {
 public:
  explicit JsonRpcConnection(std::string socket_path) : path_(std::move(socket_path)) {}
  ~JsonRpcConnection() { Close(); }
  JsonRpcConnection(const JsonRpcConnection&) = delete;
  JsonRpcConnection& operator=(const JsonRpcConnection&) = delete;

  using Clock = std::chrono::steady_clock;

  const std::string& path() const { return path_; }
  int NextId() { return next_id_++; }
  int fd() const { return fd_; }
  // Connections made so far: a change means the server may have restarted, as another build.
  std::uint64_t connects() const { return connects_; }
  // Connections made after the server went away (the first; after a failed connect; after the
  // server closed or reset the connection), not after the exporter dropped one itself (its
  // deadline, a reply it refused): a change means the server has likely restarted.
  std::uint64_t sessions() const { return sessions_; }
  // Whether the next connection starts a session (the server went away, or none was made yet).
  bool session_ended() const { return server_lost_; }
  // Drops a kept connection the server has closed since its last call (it restarted), so that
  // the session is known to have ended before the next call is sent. Costs one poll; true when
  // dropped.
  bool DropIfClosedByServer();

  // The steps of one call, driven by ExchangeAll for many connections at once.
  // Connects when needed and sends; an error ends the call.
  std::optional<Error> Start(std::string request, int id, Clock::time_point deadline);
  // Reads what the socket has; a value once the call is over (parsed reply or error).
  std::optional<ReadResult<JsonMessage>> OnReadable(const CallOptions& options,
                                                    Clock::time_point deadline);
  // Our reply, if it is already buffered.
  std::optional<ReadResult<JsonMessage>> Extract(const CallOptions& options);
  // Drops the connection (after any failure: the next call starts afresh).
  void Close();

 private:
  std::optional<Error> Send(Clock::time_point deadline);

  std::string path_;
  int fd_ = -1;
  std::uint64_t connects_ = 0;
  std::uint64_t sessions_ = 0;
  bool server_lost_ = true;  // the next connection starts a session
  int next_id_ = 0;
  int id_ = 0;
  std::string request_;
  bool reused_ = false;    // the call runs on a connection kept from an earlier call
  bool received_ = false;  // bytes arrived for this call
  std::string buffer_;
  JsonFramer framer_;
  // Receive buffer: here, not on the stack of the civetweb worker that reads (100 KiB).
  std::unique_ptr<char[]> chunk_ = std::make_unique<char[]>(kChunkBytes);
  static constexpr std::size_t kChunkBytes = 65536;
};

// One request on one connection and, when done, its reply (parsed once) or error.
struct JsonRpcCall {
  JsonRpcConnection* connection = nullptr;
  std::string request;
  int id = 0;
  ReadResult<JsonMessage> reply = Error{ErrorCode::kTimeout, "not run"};
  std::chrono::steady_clock::time_point done_at;  // when the reply or the error came
  // A tighter cap than the options' for this call's reply (0: the options'), and the budget it
  // draws on (null: the options').
  std::size_t max_reply_bytes = 0;
  ReplyBudget* budget = nullptr;
};

// Sends every call's request, then waits for all replies together on this thread, so the
// servers behind different sockets work in parallel and one that hangs delays only itself.
// Every call ends by `options.timeout`.
void ExchangeAll(std::vector<JsonRpcCall>& calls, const CallOptions& options);

// ExchangeAll in steps, for a caller that uses each reply as it comes while others are still
// awaited (in its own frame: nothing runs deeper on the thread's stack than ExchangeAll did).
// The constructor sends every request; each Next() waits for calls to end and returns the
// indices of those that ended since the last one, until the deadline; empty once every call
// has ended. `calls` must outlive it and keep its size.
class Exchange {
 public:
  Exchange(std::vector<JsonRpcCall>& calls, const CallOptions& options);
  const std::vector<std::size_t>& Next();

 private:
  CallOptions OptionsOf(const JsonRpcCall& call) const;
  void End(JsonRpcCall& call, ReadResult<JsonMessage> reply);

  std::vector<JsonRpcCall>& calls_;
  const CallOptions options_;
  const JsonRpcConnection::Clock::time_point deadline_;
  std::vector<JsonRpcCall*> open_;
  std::vector<std::size_t> ended_;
  bool first_ = true;  // ended_ holds the calls that ended as they were sent
};

// Requests and replies of the two calls the exporter makes.
JsonRpcCall UnixctlRequest(JsonRpcConnection& ctl, std::string_view method,
                           const std::vector<std::string>& params);
ReadResult<std::string> UnixctlResult(const JsonRpcCall& call);
// The select of one database's row: its reply is a few hundred bytes, and is capped at
// kMaxServerSelectBytes whatever the reply cap (a flood of tiny rows is costly to parse).
inline constexpr std::size_t kMaxServerSelectBytes = 64u << 10;
JsonRpcCall ServerDatabasesRequest(JsonRpcConnection& sock, std::string_view database);
ReadResult<std::vector<ServerDatabase>> ServerDatabasesResult(const JsonRpcCall& call);

}  // namespace ovn_raft
