#pragma once

// A directory of a test's own under /tmp, removed with everything in it when the test ends.

#include <filesystem>
#include <string>

namespace ovn_raft::testing {

class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "ovn-raft-test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // A path inside the directory.
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace ovn_raft::testing
