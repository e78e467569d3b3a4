#include "reader/database_file.h"

#include <gtest/gtest.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace ovn_raft {
namespace {

TEST(DatabaseFileTest, SizeOfTheFileAndOfItsFilesystem) {
  char path[] = "/tmp/ovn-raft-db-file.XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  const std::string data(12345, 'x');
  ASSERT_EQ(write(fd, data.data(), data.size()), static_cast<ssize_t>(data.size()));
  close(fd);
  const auto f = StatDatabaseFile(path);
  struct statvfs vfs {};
  ASSERT_EQ(statvfs(path, &vfs), 0);
  unlink(path);
  ASSERT_TRUE(f) << f.error();
  EXPECT_EQ(f.value().file_bytes, 12345u);
  EXPECT_EQ(f.value().filesystem_bytes, static_cast<std::uint64_t>(vfs.f_blocks) * vfs.f_frsize);
  EXPECT_GT(f.value().filesystem_bytes, 0u);
  EXPECT_LE(f.value().avail_bytes, f.value().filesystem_bytes);
}

TEST(DatabaseFileTest, AMissingFileIsAnErrorThatSaysWhich) {
  const auto f = StatDatabaseFile("/nonexistent/ovnnb_db.db");
  ASSERT_FALSE(f);
  EXPECT_NE(f.error().find("/nonexistent/ovnnb_db.db"), std::string::npos);
  EXPECT_NE(f.error().find("No such file"), std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
