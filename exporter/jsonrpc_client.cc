#include "jsonrpc_client.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "jsonrpc_framing.h"
#include "jsonrpc_message.h"

namespace ovn_raft {
namespace {

using Clock = std::chrono::steady_clock;

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

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

Result<int> Connect(const std::string& path, Clock::time_point deadline) {
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
  if (err == EACCES || err == EPERM) return SystemError(ErrorCode::kPermissionDenied, path, err);
  if (err == ECONNREFUSED) {
    return Error{ErrorCode::kConnectFailed, "connection refused at " + path + " (server gone?)"};
  }
  return SystemError(ErrorCode::kConnectFailed, "connect " + path, err);
}

Result<bool> SendAll(int fd, std::string_view data, Clock::time_point deadline) {
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
  return true;
}

// A printable excerpt of bytes that are not JSON, for the error message.
std::string Excerpt(std::string_view bytes) {
  std::string out;
  for (char c : bytes.substr(0, 40)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return out;
}

}  // namespace

Result<std::string> JsonRpcExchange(const std::string& socket_path, std::string_view request,
                                    int id, const CallOptions& options) {
  const auto deadline = Clock::now() + options.timeout;
  auto connected = Connect(socket_path, deadline);
  if (!connected) return connected.error();
  const Fd fd(connected.value());
  if (auto sent = SendAll(fd.get(), request, deadline); !sent) return sent.error();

  std::string buffer;
  JsonFramer framer;
  char chunk[65536];
  while (true) {
    if (!WaitFor(fd.get(), POLLIN, deadline)) {
      return Error{ErrorCode::kTimeout, "no complete reply from " + socket_path + " within " +
                                            std::to_string(options.timeout.count()) + " ms"};
    }
    const ssize_t n = recv(fd.get(), chunk, sizeof(chunk), 0);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      return SystemError(ErrorCode::kConnectionClosed, "recv " + socket_path, errno);
    }
    if (n == 0) {
      return Error{ErrorCode::kConnectionClosed, "connection closed by " + socket_path + " after " +
                                                     std::to_string(buffer.size()) +
                                                     " bytes of reply"};
    }
    buffer.append(chunk, static_cast<std::size_t>(n));
    // Several messages may be queued; consume each complete one until ours appears.
    while (true) {
      const auto state = framer.Scan(buffer);
      if (state == JsonFramer::State::kInvalid) {
        return Error{ErrorCode::kInvalidJson,
                     "reply is not a JSON object: \"" + Excerpt(buffer) + "\""};
      }
      if (state == JsonFramer::State::kIncomplete) break;
      std::string message = buffer.substr(0, framer.message_end());
      buffer.erase(0, framer.message_end());
      framer = JsonFramer();
      auto kind = ClassifyMessage(message, id);
      if (!kind) return kind.error();
      if (kind.value() == MessageKind::kReplyToUs) return message;
    }
    if (buffer.size() > options.max_reply_bytes) {
      return Error{ErrorCode::kReplyTooLarge, "reply from " + socket_path + " exceeds " +
                                                  std::to_string(options.max_reply_bytes) +
                                                  " bytes"};
    }
  }
}

Result<std::string> UnixctlCall(const std::string& ctl_path, std::string_view method,
                                const std::vector<std::string>& params,
                                const CallOptions& options) {
  constexpr int kId = 0;
  auto reply = JsonRpcExchange(ctl_path, EncodeUnixctlRequest(method, params, kId), kId, options);
  if (!reply) return reply.error();
  return DecodeUnixctlReply(reply.value());
}

Result<std::vector<ServerDatabase>> SelectServerDatabases(const std::string& db_socket_path,
                                                          const CallOptions& options) {
  constexpr int kId = 1;
  auto reply = JsonRpcExchange(db_socket_path, EncodeServerDatabaseSelect(kId), kId, options);
  if (!reply) return reply.error();
  return DecodeServerDatabaseReply(reply.value());
}

}  // namespace ovn_raft
