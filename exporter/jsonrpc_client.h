#pragma once

// The I/O edge towards ovsdb-server: one JSON-RPC exchange over a unix socket, the way
// ovs-appctl talks to a `.ctl` socket and OVSDB clients to a `.sock` socket. No fork/exec.
// Thread-safe (no shared state); never throws.

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "result.h"
#include "server_database.h"

namespace ovn_raft {

struct CallOptions {
  // One deadline for connect, send and receive together.
  std::chrono::milliseconds timeout{2000};
  // Replies above this are abandoned with kReplyTooLarge (a cluster/status is a few KiB).
  std::size_t max_reply_bytes = 8u << 20;
};

// Sends `request` and returns the text of the first message that replies to `id`.
Result<std::string> JsonRpcExchange(const std::string& socket_path, std::string_view request,
                                    int id, const CallOptions& options);

// A unixctl command on a `.ctl` socket, e.g. UnixctlCall(ctl, "cluster/status",
// {"OVN_Northbound"}).
Result<std::string> UnixctlCall(const std::string& ctl_path, std::string_view method,
                                const std::vector<std::string>& params, const CallOptions& options);

// The _Server database's Database table, read from a database socket (`.sock`).
Result<std::vector<ServerDatabase>> SelectServerDatabases(const std::string& db_socket_path,
                                                          const CallOptions& options);

}  // namespace ovn_raft
