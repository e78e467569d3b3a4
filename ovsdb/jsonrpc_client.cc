#include "ovsdb/jsonrpc_client.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "ovsdb/jsonrpc_framing.h"
#include "ovsdb/jsonrpc_message.h"
#include "ovsdb/socket_access.h"

namespace ovn_raft {
namespace {

using Clock = std::chrono::steady_clock;

Error SystemError(ErrorCode code, const std::string& what, int err) {
  return Error{code, what + ": " + std::strerror(err)};
}

// Waits for `events` on `fd` until `deadline`. Returns false on timeout.
bool WaitFor(int fd, short events, Clock::time_point deadline) {
  while (true) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, events, 0};
    const int n = poll(&p, 1, static_cast<int>(left.count()));
    if (n > 0) return true;  // readable, writable, or an error the next call will report
    if (n < 0 && errno != EINTR) return true;
  }
}

ReadResult<int> Connect(const std::string& path, Clock::time_point deadline) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof(addr.sun_path)) {
    return Error{ErrorCode::kConnectFailed, "socket path too long: " + path};
  }
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return SystemError(ErrorCode::kConnectFailed, "socket", errno);
  if (connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0) return fd;
  const int err = errno;
  if (err == EAGAIN || err == EINPROGRESS) {
    // A full listen backlog: the server is alive but not accepting yet.
    if (!WaitFor(fd, POLLOUT, deadline)) {
      close(fd);
      return Error{ErrorCode::kTimeout, "timed out connecting to " + path};
    }
    int so_error = 0;
    socklen_t len = sizeof(so_error);
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len);
    if (so_error == 0) return fd;
    close(fd);
    return SystemError(ErrorCode::kConnectFailed, "connect " + path, so_error);
  }
  close(fd);
  if (err == ENOENT) return Error{ErrorCode::kSocketMissing, "no socket at " + path};
  if (err == EACCES || err == EPERM) {
    return Error{ErrorCode::kPermissionDenied, path + ": " + std::strerror(err) + ": " +
                                                   PermissionAdvice(ReadSocketAccess(path))};
  }
  if (err == ECONNREFUSED) {
    return Error{ErrorCode::kConnectFailed, "connection refused at " + path + " (server gone?)"};
  }
  return SystemError(ErrorCode::kConnectFailed, "connect " + path, err);
}

std::optional<Error> SendAll(int fd, std::string_view data, Clock::time_point deadline) {
  while (!data.empty()) {
    const ssize_t n = send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n > 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!WaitFor(fd, POLLOUT, deadline)) return Error{ErrorCode::kTimeout, "timed out sending"};
      continue;
    }
    return SystemError(ErrorCode::kConnectionClosed, "send", errno);
  }
  return std::nullopt;
}

// A printable excerpt of bytes that are not JSON, for the error message.
std::string Excerpt(std::string_view bytes) {
  std::string out;
  for (char c : bytes.substr(0, 40)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return out;
}

}  // namespace

void JsonRpcConnection::Close() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  buffer_.clear();
}

bool JsonRpcConnection::DropIfClosedByServer() {
  if (fd_ < 0) return false;
  pollfd p{fd_, POLLIN, 0};
  if (poll(&p, 1, 0) <= 0) return false;
  // Readable between calls: either the end of the stream (or an error) or bytes nobody asked
  // for; only the first ends the session.
  char byte;
  const ssize_t n = recv(fd_, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))) {
    return false;
  }
  Close();
  server_lost_ = true;
  return true;
}

std::optional<Error> JsonRpcConnection::Send(Clock::time_point deadline) {
  reused_ = fd_ >= 0;
  received_ = false;
  framer_ = JsonFramer();
  // A large reply's buffer is not kept for the next call: memory follows the current reply.
  if (buffer_.empty() && buffer_.capacity() > 4 * kChunkBytes) std::string().swap(buffer_);
  if (!reused_) {
    buffer_.clear();
    auto connected = Connect(path_, deadline);
    if (!connected) {
      server_lost_ = true;
      return connected.error();
    }
    fd_ = connected.value();
    ++connects_;
    if (server_lost_) ++sessions_;
    server_lost_ = false;
  }
  if (auto failed = SendAll(fd_, request_, deadline)) {
    // A kept connection the server has closed (restart, idle drop): one fresh try.
    if (!reused_) return failed;
    server_lost_ = true;
    Close();
    return Send(deadline);
  }
  return std::nullopt;
}

std::optional<Error> JsonRpcConnection::Start(std::string request, int id,
                                              Clock::time_point deadline) {
  request_ = std::move(request);
  id_ = id;
  auto error = Send(deadline);
  if (error) Close();
  return error;
}

std::optional<ReadResult<JsonMessage>> JsonRpcConnection::Extract(const CallOptions& options) {
  // Several messages may be queued; consume each complete one until ours appears. The
  // consumed bytes go in one erase at the end: one erase per message made a flood of tiny
  // messages quadratic (a full core).
  std::size_t consumed = 0, dropped = 0;
  const auto compact = [&] {
    buffer_.erase(0, consumed);
    if (options.budget != nullptr) options.budget->Give(dropped);
  };
  while (true) {
    const std::string_view rest = std::string_view(buffer_).substr(consumed);
    const auto state = framer_.Scan(rest);
    if (state == JsonFramer::State::kInvalid) {
      return ReadResult<JsonMessage>(
          Error{ErrorCode::kInvalidJson, "reply is not a JSON object: \"" + Excerpt(rest) + "\""});
    }
    if (state == JsonFramer::State::kIncomplete) break;
    auto message = ParseJsonMessage(rest.substr(0, framer_.message_end()));
    const std::size_t size = framer_.message_end();
    consumed += size;
    framer_ = JsonFramer();
    if (!message) return ReadResult<JsonMessage>(message.error());
    auto kind = ClassifyMessage(message.value(), id_);
    if (!kind) return ReadResult<JsonMessage>(kind.error());
    if (kind.value() == MessageKind::kReplyToUs) {
      compact();
      // A large reply's buffer is dead weight while the round's other calls are still read.
      if (buffer_.capacity() > 4 * kChunkBytes && buffer_.size() <= kChunkBytes) {
        std::string(buffer_).swap(buffer_);
      }
      return message;
    }
    dropped += size;
  }
  compact();
  if (buffer_.size() > options.max_reply_bytes) {
    return ReadResult<JsonMessage>(Error{
        ErrorCode::kReplyTooLarge,
        "reply from " + path_ + " exceeds " + std::to_string(options.max_reply_bytes) + " bytes"});
  }
  return std::nullopt;
}

std::optional<ReadResult<JsonMessage>> JsonRpcConnection::OnReadable(const CallOptions& options,
                                                                     Clock::time_point deadline) {
  const ssize_t n = recv(fd_, chunk_.get(), kChunkBytes, MSG_DONTWAIT);
  if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) return std::nullopt;
  if (n <= 0) {
    const int err = n < 0 ? errno : 0;
    server_lost_ = true;  // it closed or reset the connection
    if (reused_ && !received_ && (n == 0 || err == ECONNRESET)) {
      // The server closed the kept connection before this call: reconnect and resend once.
      Close();
      if (auto error = Send(deadline)) return ReadResult<JsonMessage>(*error);
      reused_ = false;
      return std::nullopt;
    }
    if (n < 0)
      return ReadResult<JsonMessage>(
          SystemError(ErrorCode::kConnectionClosed, "recv " + path_, err));
    return ReadResult<JsonMessage>(Error{ErrorCode::kConnectionClosed,
                                         "connection closed by " + path_ + " after " +
                                             std::to_string(buffer_.size()) + " bytes of reply"});
  }
  received_ = true;
  if (options.budget != nullptr && !options.budget->Take(static_cast<std::size_t>(n))) {
    options.budget->CountRefusal();
    return ReadResult<JsonMessage>(
        Error{ErrorCode::kRoundBudgetExceeded,
              "reply from " + path_ + " refused after " + std::to_string(buffer_.size()) +
                  " bytes: the read round's memory budget for the database (" +
                  std::to_string(options.budget->limit()) + " bytes) is spent"});
  }
  buffer_.append(chunk_.get(), static_cast<std::size_t>(n));
  return Extract(options);
}

Exchange::Exchange(std::vector<JsonRpcCall>& calls, const CallOptions& options)
    : calls_(calls),
      options_(options),
      deadline_(JsonRpcConnection::Clock::now() + options.timeout) {
  for (auto& call : calls_) {
    if (auto error = call.connection->Start(call.request, call.id, deadline_)) {
      End(call, *error);
    } else if (auto done = call.connection->Extract(OptionsOf(call))) {
      End(call, std::move(*done));
    } else {
      open_.push_back(&call);
    }
  }
}

// Each call's own cap and budget, where it has them.
CallOptions Exchange::OptionsOf(const JsonRpcCall& call) const {
  CallOptions o = options_;
  if (call.max_reply_bytes != 0)
    o.max_reply_bytes = std::min(o.max_reply_bytes, call.max_reply_bytes);
  if (call.budget != nullptr) o.budget = call.budget;
  return o;
}

void Exchange::End(JsonRpcCall& call, ReadResult<JsonMessage> reply) {
  call.reply = std::move(reply);
  call.done_at = JsonRpcConnection::Clock::now();
  ended_.push_back(static_cast<std::size_t>(&call - calls_.data()));
}

const std::vector<std::size_t>& Exchange::Next() {
  if (!first_) ended_.clear();
  first_ = false;
  std::vector<pollfd> fds;
  while (ended_.empty() && !open_.empty()) {
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline_ - JsonRpcConnection::Clock::now());
    if (left.count() <= 0) break;
    fds.clear();
    for (auto* call : open_) fds.push_back(pollfd{call->connection->fd(), POLLIN, 0});
    const int ready = poll(fds.data(), fds.size(), static_cast<int>(left.count()));
    if (ready < 0 && errno != EINTR) break;
    std::vector<JsonRpcCall*> still;
    for (std::size_t i = 0; i < open_.size(); ++i) {
      auto* call = open_[i];
      std::optional<ReadResult<JsonMessage>> done;
      if (fds[i].revents != 0) done = call->connection->OnReadable(OptionsOf(*call), deadline_);
      if (!done) {
        still.push_back(call);
        continue;
      }
      if (!done->ok()) call->connection->Close();
      End(*call, std::move(*done));
    }
    open_.swap(still);
  }
  if (ended_.empty()) {  // the deadline: every call still open ends now
    for (auto* call : open_) {
      // A late reply must not be taken for the next call's: the connection goes.
      call->connection->Close();
      End(*call, Error{ErrorCode::kTimeout, "no complete reply from " + call->connection->path() +
                                                " within " +
                                                std::to_string(options_.timeout.count()) + " ms"});
    }
    open_.clear();
  }
  return ended_;
}

void ExchangeAll(std::vector<JsonRpcCall>& calls, const CallOptions& options) {
  Exchange exchange(calls, options);
  while (!exchange.Next().empty()) {
  }
}

JsonRpcCall UnixctlRequest(JsonRpcConnection& ctl, std::string_view method,
                           const std::vector<std::string>& params) {
  JsonRpcCall call;
  call.connection = &ctl;
  call.id = ctl.NextId();
  call.request = EncodeUnixctlRequest(method, params, call.id);
  return call;
}

ReadResult<std::string> UnixctlResult(const JsonRpcCall& call) {
  if (!call.reply) return call.reply.error();
  return DecodeUnixctlReply(call.reply.value());
}

JsonRpcCall ServerDatabasesRequest(JsonRpcConnection& sock, std::string_view database) {
  JsonRpcCall call;
  call.connection = &sock;
  call.id = sock.NextId();
  call.request = EncodeServerDatabaseSelect(database, call.id);
  call.max_reply_bytes = kMaxServerSelectBytes;
  return call;
}

ReadResult<std::vector<ServerDatabase>> ServerDatabasesResult(const JsonRpcCall& call) {
  if (!call.reply) return call.reply.error();
  return DecodeServerDatabaseReply(call.reply.value());
}

}  // namespace ovn_raft
