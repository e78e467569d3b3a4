#include "ovsdb/socket_access.h"

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace ovn_raft {
namespace {

constexpr int kCapDacOverride = 1;  // linux/capability.h

std::string Mode(std::uint32_t mode) {
  std::string out = "s";
  const char* rwx = "rwxrwxrwx";
  for (int bit = 8; bit >= 0; --bit) out += (mode >> bit) & 1 ? rwx[8 - bit] : '-';
  return out;
}

}  // namespace

std::string PermissionAdvice(const SocketAccess& a) {
  std::string out;
  if (a.owner_uid && a.owner_gid && a.mode) {
    out = "the socket is " + Mode(*a.mode) + " " + std::to_string(*a.owner_uid) + ":" +
          std::to_string(*a.owner_gid);
  } else {
    out = "the socket's owner is unknown";
  }
  out += "; this exporter runs as " + std::to_string(a.uid) + ":" + std::to_string(a.gid);
  if (!a.groups.empty()) {
    out += " (groups";
    for (auto g : a.groups) out += " " + std::to_string(g);
    out += ")";
  }
  const bool dac_override = (a.cap_effective >> kCapDacOverride) & 1;
  out += dac_override ? " with CAP_DAC_OVERRIDE" : " without capabilities";
  if (!a.owner_uid || !a.owner_gid) {
    return out + "; run it as the user of ovsdb-server";
  }
  const std::uint32_t uid = *a.owner_uid, gid = *a.owner_gid;
  if (a.uid == 0 && uid != 0 && !dac_override) {
    out += " (root without CAP_DAC_OVERRIDE is refused like any other user)";
  }
  const bool group_writable = a.mode && (*a.mode & 020);
  const std::string user = a.owner_user.empty() ? std::to_string(uid) : a.owner_user;
  const std::string group = a.owner_group.empty() ? std::to_string(gid) : a.owner_group;
  switch (a.context) {
    case RunContext::kSystemd:
      out += "; run the service as the sockets' owner: set User=" + user + " and Group=" + group +
             " in a drop-in (systemctl edit ovn-raft-exporter, under [Service])";
      if (group_writable) out += " (or SupplementaryGroups=" + group + ")";
      if (uid != 0) out += "; RHEL and Fedora run ovsdb-server as openvswitch";
      return out;
    case RunContext::kShell:
      out += "; run it as the sockets' owner, user " + user + " (uid " + std::to_string(uid) +
             "), e.g. with sudo -u " + user;
      if (group_writable) out += " (or as a member of group " + group + ")";
      return out;
    case RunContext::kContainer:
      break;
  }
  out += "; run it as the sockets' owner: securityContext runAsUser: " + std::to_string(uid) +
         ", runAsGroup: " + std::to_string(gid);
  if (group_writable) out += " (or supplementalGroups: [" + std::to_string(gid) + "])";
  out += "; outside Kubernetes, docker or podman run --user " + std::to_string(uid) + ":" +
         std::to_string(gid);
  if (uid == 65534) {
    out += "; Kube-OVN v1.13+ runs ovsdb-server as 65534: the default kube-ovn Component does";
  } else if (uid == 0) {
    out += "; the kube-ovn/run-as-root Component does (Kube-OVN with IPsec, charts before v1.13)";
  }
  return out;
}

SocketAccess ReadSocketAccess(const std::string& path) {
  SocketAccess a;
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    a.owner_uid = st.st_uid;
    a.owner_gid = st.st_gid;
    a.mode = st.st_mode & 0777;
    // getpwuid_r and getgrgid_r: this runs on any reading thread.
    std::vector<char> buf(16384);
    passwd pw{};
    passwd* pw_found = nullptr;
    if (getpwuid_r(st.st_uid, &pw, buf.data(), buf.size(), &pw_found) == 0 && pw_found) {
      a.owner_user = pw.pw_name;
    }
    group gr{};
    group* gr_found = nullptr;
    if (getgrgid_r(st.st_gid, &gr, buf.data(), buf.size(), &gr_found) == 0 && gr_found) {
      a.owner_group = gr.gr_name;
    }
  }
  a.context = ReadRunContext();
  a.uid = geteuid();
  a.gid = getegid();
  std::vector<gid_t> groups(64);
  const int n = getgroups(static_cast<int>(groups.size()), groups.data());
  for (int i = 0; i < n; ++i) {
    if (groups[static_cast<std::size_t>(i)] != a.gid)
      a.groups.push_back(groups[static_cast<std::size_t>(i)]);
  }
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("CapEff:", 0) == 0) {
      a.cap_effective = std::strtoull(line.c_str() + 7, nullptr, 16);
    }
  }
  return a;
}

}  // namespace ovn_raft
