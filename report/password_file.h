#pragma once

// The password of the report's basic auth, read from a file as Prometheus' `password_file`
// is: a Secret mounted as a file, never a flag's value (which `ps` and shell history show).

#include <string>

#include "base/result.h"

namespace ovn_raft {

// The file's contents without leading and trailing white space, or why not. The error names
// the path and never a byte of the contents. The file is opened without blocking (a FIFO
// cannot stall the report), must be a regular file, and is read up to a bound.
Result<std::string, std::string> ReadPasswordFile(const std::string& path);

}  // namespace ovn_raft
