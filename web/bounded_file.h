#pragma once

// Reads a file the exporter (re)loads: the web config, a certificate, a key, a client CA. Such
// a path is the operator's, but what sits there may change under the exporter (a Secret update,
// a mistake, an attacker with write access to the directory): a FIFO would block an open or a
// read forever, a 1 GiB sparse file or /dev/zero would fill memory. So: opened without blocking
// (O_NONBLOCK) and following symlinks (a Kubernetes Secret's files are symlinks into a directory
// swapped at once), checked to be a regular file on the opened descriptor (no check-then-open
// race), and read up to a bound.

#include <cstddef>
#include <string>

#include "base/result.h"

namespace ovn_raft {

// The contents of the regular file at `path`, at most `max_bytes`, or why not, naming the file
// as `what` ("web config", "cert_file", ...).
Result<std::string, std::string> ReadBoundedFile(const std::string& path, std::size_t max_bytes,
                                                 const std::string& what);

}  // namespace ovn_raft
