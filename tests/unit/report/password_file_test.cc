#include "report/password_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/temp_dir.h"

namespace ovn_raft {
namespace {

class PasswordFileTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ / name;
    std::ofstream(path) << text;
    return path;
  }
  testing::TempDir dir_{"ovn-raft-password"};
};

TEST_F(PasswordFileTest, WhiteSpaceAroundThePasswordIsIgnored) {
  const auto p = ReadPasswordFile(Write("p", "  s3cr:et with space\n"));
  ASSERT_TRUE(p);
  EXPECT_EQ(p.value(), "s3cr:et with space");
}

TEST_F(PasswordFileTest, ErrorsNameThePathAndNeverTheContents) {
  const auto empty = ReadPasswordFile(Write("empty", " \n"));
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().find("is empty"), std::string::npos);
  const auto big = ReadPasswordFile(Write("big", std::string(5000, 'k')));
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().find("kkkk"), std::string::npos);
  EXPECT_NE(big.error().find(dir_ / "big"), std::string::npos);
  const auto missing = ReadPasswordFile(dir_ / "none");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("No such file"), std::string::npos);
  // A FIFO would block a plain open: refused at once.
  ASSERT_EQ(mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  const auto fifo = ReadPasswordFile(dir_ / "fifo");
  ASSERT_FALSE(fifo);
  EXPECT_NE(fifo.error().find("not a regular file"), std::string::npos);
  EXPECT_FALSE(ReadPasswordFile(dir_.path()));
}

}  // namespace
}  // namespace ovn_raft
