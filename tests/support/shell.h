#pragma once

// Runs a shell command for a test, as an operator would type it: curl, openssl s_client.

#include <string>

namespace ovn_raft::testing {

// `command`'s standard output and error together; its exit code in `exit_code` when given (-1
// when it did not exit normally).
std::string Shell(const std::string& command, int* exit_code = nullptr);

}  // namespace ovn_raft::testing
