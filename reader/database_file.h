#pragma once

// The database file on disk and the filesystem that holds it, read at scrape time where the
// exporter is given the file's path: how close the member is to a failed write.

#include <cstdint>
#include <string>

#include "base/result.h"

namespace ovn_raft {

struct DatabaseFileFacts {
  std::uint64_t file_bytes = 0;        // the file's size
  std::uint64_t filesystem_bytes = 0;  // the filesystem's size
  std::uint64_t avail_bytes = 0;       // free to an unprivileged writer (statvfs f_bavail)
};

// stat(2) and statvfs(3) of `path`; the error says which failed and why.
Result<DatabaseFileFacts, std::string> StatDatabaseFile(const std::string& path);

}  // namespace ovn_raft
