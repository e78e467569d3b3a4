#include "reader/socket_discovery.h"

#include <sys/stat.h>

namespace ovn_raft {
namespace {

struct Known {
  const char* name;
  const char* file;  // ovn-ctl's name for both sockets and the file, without .ctl/.sock/.db
  // Every OVN central runs NB and SB: they are watched for when nothing is found and advised
  // when missing. Few run the interconnection databases: those are read only where found.
  bool expected;
};
constexpr Known kDatabases[] = {{"OVN_Northbound", "ovnnb_db", true},
                                {"OVN_Southbound", "ovnsb_db", true},
                                {"OVN_IC_Northbound", "ovn_ic_nb_db", false},
                                {"OVN_IC_Southbound", "ovn_ic_sb_db", false}};

DatabaseTarget TargetIn(const std::string& dir, const Known& db) {
  const std::string base = dir + "/" + db.file;
  return {db.name, base + ".ctl", base + ".sock", ""};
}

}  // namespace

const std::vector<std::string>& UsualRunDirs() {
  static const std::vector<std::string> dirs = {
      "/var/run/ovn", "/run/ovn", "/var/snap/microovn/common/run/ovn", "/run/openvswitch"};
  return dirs;
}

SocketDiscovery DiscoverDatabases(const std::optional<std::string>& ovn_rundir,
                                  const std::function<bool(const std::string&)>& is_socket) {
  SocketDiscovery out;
  if (ovn_rundir && !ovn_rundir->empty()) {
    std::string dir = *ovn_rundir;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    out.tried = {dir};
  } else {
    out.tried = UsualRunDirs();
  }
  for (const auto& dir : out.tried) {
    for (const auto& db : kDatabases) {
      DatabaseTarget t = TargetIn(dir, db);
      if (is_socket(t.ctl_path)) out.targets.push_back(std::move(t));
    }
    if (!out.targets.empty()) {
      out.found_in = dir;
      return out;
    }
  }
  for (const auto& db : kDatabases) {
    if (db.expected) out.targets.push_back(TargetIn(out.tried.front(), db));
  }
  return out;
}

const std::vector<std::string>& UsualDbDirs() {
  static const std::vector<std::string> dirs = {"/var/lib/ovn", "/etc/ovn",
                                                "/var/snap/microovn/common/data/central/db",
                                                "/var/lib/openvswitch"};
  return dirs;
}

void DiscoverDatabaseFiles(const std::optional<std::string>& ovn_dbdir,
                           const std::function<bool(const std::string&)>& is_file,
                           SocketDiscovery& found) {
  found.files_tried =
      ovn_dbdir && !ovn_dbdir->empty() ? std::vector<std::string>{*ovn_dbdir} : UsualDbDirs();
  for (auto& dir : found.files_tried) {
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  }
  for (const auto& dir : found.files_tried) {
    bool any = false;
    for (auto& t : found.targets) {
      for (const auto& db : kDatabases) {
        const std::string file = dir + "/" + db.file + ".db";
        if (t.name == db.name && is_file(file)) {
          t.file_path = file;
          any = true;
        }
      }
    }
    if (any) {
      found.files_found_in = dir;
      return;
    }
  }
  for (auto& t : found.targets) {
    for (const auto& db : kDatabases) {
      if (t.name != db.name) continue;
      for (const auto& dir : found.files_tried)
        t.file_candidates.push_back(dir + "/" + db.file + ".db");
    }
  }
}

bool GivesEveryKnownDatabase(const std::vector<DatabaseTarget>& given) {
  for (const auto& db : kDatabases) {
    if (!db.expected) continue;
    bool named = false;
    for (const auto& t : given) named = named || t.name == db.name;
    if (!named) return false;
  }
  return true;
}

DiscoveryMerge AddDiscovered(const std::vector<DatabaseTarget>& given,
                             const SocketDiscovery& found) {
  DiscoveryMerge out{given, {}, {}};
  for (const auto& db : kDatabases) {
    const DatabaseTarget* seen = nullptr;
    if (!found.found_in.empty()) {
      for (const auto& t : found.targets) {
        if (t.name == db.name) seen = &t;
      }
    }
    bool taken = false;
    for (const auto& t : given) {
      taken = taken || t.name == db.name || (seen && t.ctl_path == seen->ctl_path);
    }
    if (taken) continue;
    if (seen) {
      out.targets.push_back(*seen);
      out.added.push_back(seen->name);
    } else if (db.expected) {
      const std::string dir = found.tried.empty() ? UsualRunDirs().front() : found.tried.front();
      out.not_read.push_back(TargetIn(dir, db));
    }
  }
  return out;
}

bool IsRegularFile(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool IsSocket(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode);
}

}  // namespace ovn_raft
