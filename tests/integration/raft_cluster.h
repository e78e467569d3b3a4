#pragma once

// A real OVN NB+SB Raft cluster on loopback for a test, driven through scripts/raft-cluster.sh
// (the same harness the demo uses). Member N listens on 127.0.0.N.

#include <string>
#include <vector>

#include "support/temp_dir.h"

namespace ovn_raft::testing {

class RaftCluster {
 public:
  explicit RaftCluster(int members = 3);
  // The databases `dbs` instead of NB and SB, in that order: "nb", "sb", "ic_nb", "ic_sb" (the
  // interconnection databases' files named as ovn-ctl names them, ovn_ic_nb_db.ctl and so on,
  // so that discovery finds them with OVN_RUNDIR and OVN_DBDIR set to a member's directory).
  RaftCluster(int members, std::vector<std::string> dbs);
  ~RaftCluster();
  RaftCluster(const RaftCluster&) = delete;
  RaftCluster& operator=(const RaftCluster&) = delete;

  std::string Ctl(int member, const std::string& db) const;  // db: "nb" | "sb" | "ic_nb" | "ic_sb"
  std::string Sock(int member, const std::string& db) const;
  std::string File(int member, const std::string& db) const;  // the database file
  std::string MemberDir(int member) const;                    // the member's sockets and files
  static std::string DbName(const std::string& db);
  int Leader(const std::string& db) const;  // member number, 0 when none
  // The member's short server ID ("Server ID:" of its cluster/status), "" when unreadable.
  std::string ServerId(int member, const std::string& db) const;
  int port(const std::string& db) const;
  void Kill(int member);
  void Restart(int member);  // same database, same ID
  // Same database, same ID, another build: the ovsdb-server, ovsdb-tool and ovs-appctl in
  // `ovs_bin_dir` (scripts/ovs-versions.sh bin VERSION), as an upgrade restarts a member.
  void Restart(int member, const std::string& ovs_bin_dir);
  void RestartFresh(int member);
  void Split(int member);
  void Add(int member);  // a new member N joins at 127.0.0.N
  void Cut(int member);  // firewall the member off from its peers (iptables), keep it running
  void Heal();
  void Leave(int member, const std::string& db);  // cluster/leave: the operator removes it
  // The member's `db` database alone on a tmpfs of `size` ("128k"): restarts it the first
  // time; again, grows (or shrinks) the tmpfs in place, as an operator resizes a volume.
  void Disk(int member, const std::string& db, const std::string& size);
  void Lead(int member, const std::string& db);  // makes the member db's leader
  void Fill(int member, const std::string& db);  // writes through it until it fails
  // Writes through db's leader until the follower `member`, on a disk that Disk made small,
  // fails a write (it keeps running as a cluster member).
  // `pause`: seconds between writes ("0.05"), so that the disk fills over a while.
  void FillFollower(int member, const std::string& db, const std::string& pause = "0");
  // Writes through db's leader for `seconds`, one small transaction every `pause` seconds
  // (blocks); Unload ends every load early.
  void Load(const std::string& db, int seconds, const std::string& pause = "0.1") const;
  void Unload() const;
  // Every fsync and fdatasync of the member's db server returns `microseconds` late (strace's
  // fault injection) until FastDisk.
  void SlowDisk(int member, const std::string& db, int microseconds);
  void FastDisk(int member, const std::string& db);
  // Stops the member's db server gracefully (ovs-appctl exit): a leader first transfers its
  // leadership. Restart starts it again.
  void Shutdown(int member, const std::string& db);
  void RestartDatabase(int member, const std::string& db);  // its db server alone, same ID
  void Wait();
  int members() const { return members_; }
  const std::string& dir() const { return dir_.path(); }

 private:
  std::string Run(const std::string& args, const std::string& env = "") const;
  // The rest of the first line of the member's cluster/status that starts with `prefix`.
  std::string StatusLine(int member, const std::string& db, const std::string& prefix) const;

  TempDir dir_{"ovn-raft-it"};  // removed after the members stop
  int members_;
  int base_port_;
  std::vector<std::string> dbs_ = {"nb", "sb"};  // one port each, from base_port_ on
};

}  // namespace ovn_raft::testing
