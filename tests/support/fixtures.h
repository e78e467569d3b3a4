#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/test_paths.h"

namespace ovn_raft::testing {

inline std::filesystem::path FixturesDir() { return SourceDir() + "/tests/fixtures"; }

inline std::string Fixture(const std::string& relative) {
  return ReadFile(FixturesDir() / relative);
}

// Every captured cluster/status, from each OVS version folder except the hand-written ones
// (the replies to other commands sit in subfolders named after the command).
inline std::vector<std::filesystem::path> CapturedFixtures() {
  std::vector<std::filesystem::path> out;
  for (const auto& dir : std::filesystem::directory_iterator(FixturesDir())) {
    if (!dir.is_directory() || dir.path().filename().string().rfind("ovs-", 0) != 0) continue;
    for (const auto& f : std::filesystem::directory_iterator(dir.path())) {
      if (f.is_regular_file()) out.push_back(f.path());
    }
  }
  return out;
}

}  // namespace ovn_raft::testing
