#pragma once

// Why a unix socket refused this process, and what to change: connecting needs write
// permission on the socket, as its owner, as a member of its group, or with CAP_DAC_OVERRIDE.
// Kube-OVN runs ovsdb-server as 65534 (nobody) since v1.13 with sockets `srwxr-x---`, so a
// sidecar left as root without capabilities is refused. Pure; the facts are gathered by
// ReadSocketAccess() at the I/O edge.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ovsdb/run_context.h"

namespace ovn_raft {

struct SocketAccess {
  // The socket's owner and mode, when stat() could tell.
  std::optional<std::uint32_t> owner_uid, owner_gid, mode;
  // Their names, when the system knows them ("" otherwise).
  std::string owner_user, owner_group;
  // This process: effective uid and gid, supplementary groups, effective capabilities.
  std::uint32_t uid = 0, gid = 0;
  std::vector<std::uint32_t> groups;
  std::uint64_t cap_effective = 0;
  RunContext context = RunContext::kShell;  // where the setting to change lives
};

// One line: the socket's owner and mode, ours, and the setting to change where this process
// runs: the unit's User= under systemd, the securityContext in a container, else the user.
std::string PermissionAdvice(const SocketAccess& a);

// The facts for `path`: stat() of the socket, its owner's names, getresuid/getgroups, CapEff of
// /proc/self/status and ReadRunContext().
SocketAccess ReadSocketAccess(const std::string& path);

}  // namespace ovn_raft
