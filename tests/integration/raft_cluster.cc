#include "raft_cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <stdexcept>
#include <utility>

#include "support/ports.h"
#include "support/test_paths.h"

namespace ovn_raft::testing {

RaftCluster::RaftCluster(int members) : members_(members) {
  // Two ports of this process's own block (NB, SB), so that clusters of tests running side by
  // side never meet.
  base_port_ = TakePorts(2);
  Run("start " + dir() + " " + std::to_string(members) + " " + std::to_string(base_port_));
}

RaftCluster::RaftCluster(int members, std::vector<std::string> dbs)
    : members_(members), dbs_(std::move(dbs)) {
  // One port of this process's own block per database.
  base_port_ = TakePorts(static_cast<int>(dbs_.size()));
  std::string list;
  for (const auto& db : dbs_) list += (list.empty() ? "" : " ") + db;
  Run("start " + dir() + " " + std::to_string(members) + " " + std::to_string(base_port_),
      "RAFT_DBS='" + list + "' ");
}

RaftCluster::~RaftCluster() { Run("stop " + dir()); }

namespace {
// The name of a database's files in a member's directory (scripts/raft-cluster.sh's FILE).
std::string FileBase(const std::string& db) {
  if (db == "ic_nb") return "ovn_ic_nb_db";
  if (db == "ic_sb") return "ovn_ic_sb_db";
  return db;
}
}  // namespace

std::string RaftCluster::Run(const std::string& args, const std::string& env) const {
  const std::string command = env + ScriptsDir() + "/raft-cluster.sh " + args;
  FILE* p = popen(command.c_str(), "r");
  if (!p) throw std::runtime_error("popen " + command);
  std::string out;
  char buf[256];
  while (fgets(buf, sizeof(buf), p)) out += buf;
  const int status = pclose(p);
  if (status != 0 && args.rfind("leader", 0) != 0) {
    throw std::runtime_error("failed: " + command + "\n" + out);
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::string RaftCluster::MemberDir(int member) const {
  return dir() + "/m" + std::to_string(member);
}
std::string RaftCluster::Ctl(int member, const std::string& db) const {
  return MemberDir(member) + "/" + FileBase(db) + ".ctl";
}
std::string RaftCluster::Sock(int member, const std::string& db) const {
  return MemberDir(member) + "/" + FileBase(db) + ".sock";
}
std::string RaftCluster::File(int member, const std::string& db) const {
  return MemberDir(member) + "/" + FileBase(db) + ".db";
}
std::string RaftCluster::DbName(const std::string& db) {
  if (db == "ic_nb") return "OVN_IC_Northbound";
  if (db == "ic_sb") return "OVN_IC_Southbound";
  return db == "nb" ? "OVN_Northbound" : "OVN_Southbound";
}
int RaftCluster::port(const std::string& db) const {
  for (std::size_t i = 0; i < dbs_.size(); ++i) {
    if (dbs_[i] == db) return base_port_ + static_cast<int>(i);
  }
  return db == "nb" ? base_port_ : base_port_ + 1;
}
int RaftCluster::Leader(const std::string& db) const {
  const std::string out = Run("leader " + dir() + " " + db);
  return out.empty() ? 0 : std::stoi(out);
}
std::string RaftCluster::StatusLine(int member, const std::string& db,
                                    const std::string& prefix) const {
  std::string out;
  try {
    out = Run("status " + dir() + " " + std::to_string(member) + " " + db);
  } catch (const std::runtime_error&) {
    return "";
  }
  const auto at = out.find("\n" + prefix);
  if (at == std::string::npos) return "";
  const auto start = at + 1 + prefix.size();
  return out.substr(start, out.find('\n', start) - start);
}
std::string RaftCluster::ServerId(int member, const std::string& db) const {
  return StatusLine(member, db, "Server ID: ").substr(0, 4);
}
void RaftCluster::Kill(int member) { Run("kill " + dir() + " " + std::to_string(member)); }
void RaftCluster::Restart(int member) { Run("restart " + dir() + " " + std::to_string(member)); }
void RaftCluster::Restart(int member, const std::string& ovs_bin_dir) {
  Run("restart " + dir() + " " + std::to_string(member), "OVS_BIN_DIR='" + ovs_bin_dir + "' ");
}
void RaftCluster::RestartFresh(int member) {
  Run("restart-fresh " + dir() + " " + std::to_string(member));
}
void RaftCluster::Split(int member) { Run("split " + dir() + " " + std::to_string(member)); }
void RaftCluster::Add(int member) { Run("add " + dir() + " " + std::to_string(member)); }
void RaftCluster::Cut(int member) { Run("cut " + dir() + " " + std::to_string(member)); }
void RaftCluster::Heal() { Run("heal " + dir()); }
void RaftCluster::Leave(int member, const std::string& db) {
  Run("leave " + dir() + " " + std::to_string(member) + " " + db);
}
void RaftCluster::Disk(int member, const std::string& db, const std::string& size) {
  Run("disk " + dir() + " " + std::to_string(member) + " " + db + " " + size);
}
void RaftCluster::Lead(int member, const std::string& db) {
  Run("lead " + dir() + " " + std::to_string(member) + " " + db);
}
void RaftCluster::Fill(int member, const std::string& db) {
  Run("fill " + dir() + " " + std::to_string(member) + " " + db);
}
void RaftCluster::FillFollower(int member, const std::string& db, const std::string& pause) {
  Run("fill-follower " + dir() + " " + std::to_string(member) + " " + db + " " + pause);
}
void RaftCluster::Load(const std::string& db, int seconds, const std::string& pause) const {
  Run("load " + dir() + " " + db + " " + std::to_string(seconds) + " " + pause);
}
void RaftCluster::Unload() const { Run("unload " + dir()); }
void RaftCluster::SlowDisk(int member, const std::string& db, int microseconds) {
  Run("slow-disk " + dir() + " " + std::to_string(member) + " " + db + " " +
      std::to_string(microseconds));
}
void RaftCluster::FastDisk(int member, const std::string& db) {
  Run("fast-disk " + dir() + " " + std::to_string(member) + " " + db);
}
void RaftCluster::Shutdown(int member, const std::string& db) {
  Run("shutdown " + dir() + " " + std::to_string(member) + " " + db);
}
void RaftCluster::RestartDatabase(int member, const std::string& db) {
  Run("restart " + dir() + " " + std::to_string(member) + " " + db);
}
void RaftCluster::Wait() { Run("wait " + dir()); }

}  // namespace ovn_raft::testing
