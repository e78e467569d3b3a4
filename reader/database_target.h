#pragma once

#include <string>

namespace ovn_raft {

// One clustered database to watch: its unixctl socket and (optionally) its database socket.
struct DatabaseTarget {
  std::string name;  // e.g. OVN_Northbound; the `db` label
  std::string ctl_path;
  std::string sock_path;  // empty: _Server is not read
  std::string file_path;  // the database file; empty: its size and filesystem are not read
};

}  // namespace ovn_raft
