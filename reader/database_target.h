#pragma once

#include <string>
#include <vector>

namespace ovn_raft {

// One clustered database to watch: its unixctl socket and (optionally) its database socket.
struct DatabaseTarget {
  std::string name;  // e.g. OVN_Northbound; the `db` label
  std::string ctl_path;
  std::string sock_path;  // empty: _Server is not read
  std::string file_path;  // the database file; empty: its size and filesystem are not read
  // Without file_path: where the file may yet appear (a database created after the exporter
  // started); the first of them that is a file becomes file_path.
  std::vector<std::string> file_candidates = {};
};

}  // namespace ovn_raft
