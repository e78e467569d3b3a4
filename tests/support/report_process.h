#pragma once

// The real ovn-raft-report, run to its end for a test.

#include <string>
#include <vector>

namespace ovn_raft::testing {

struct ReportRun {
  int exit = -1;  // -1: not built, or killed
  std::string out, err;
  long max_rss_kib = 0;  // peak resident memory
};

// ovn-raft-report with `args`; `env`: extra NAME=value entries for its environment.
ReportRun RunReport(const std::vector<std::string>& args, const std::vector<std::string>& env = {});

}  // namespace ovn_raft::testing
