#include "reader/database_file.h"

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>

namespace ovn_raft {

Result<DatabaseFileFacts, std::string> StatDatabaseFile(const std::string& path) {
  using R = Result<DatabaseFileFacts, std::string>;
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return R::Failure("stat " + path + ": " + strerror(errno));
  struct statvfs vfs {};
  if (statvfs(path.c_str(), &vfs) != 0) {
    return R::Failure("statvfs " + path + ": " + strerror(errno));
  }
  DatabaseFileFacts f;
  f.file_bytes = static_cast<std::uint64_t>(st.st_size);
  f.filesystem_bytes = static_cast<std::uint64_t>(vfs.f_blocks) * vfs.f_frsize;
  f.avail_bytes = static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
  return f;
}

}  // namespace ovn_raft
