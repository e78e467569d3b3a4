#include "support/shell.h"

#include <sys/wait.h>

#include <cstdio>

namespace ovn_raft::testing {

std::string Shell(const std::string& command, int* exit_code) {
  std::string out;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof(buf), p)) > 0;) out.append(buf, n);
  const int status = pclose(p);
  if (exit_code) *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

}  // namespace ovn_raft::testing
