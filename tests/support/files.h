#pragma once

// Whole files read and written in one call.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ovn_raft::testing {

inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Written beside the target and renamed over it: a reader (a file watcher) never sees it half
// written.
inline void WriteFile(const std::filesystem::path& path, const std::string& content) {
  const auto next = std::filesystem::path(path.string() + ".new");
  std::ofstream(next, std::ios::binary | std::ios::trunc) << content;
  std::filesystem::rename(next, path);
}

}  // namespace ovn_raft::testing
