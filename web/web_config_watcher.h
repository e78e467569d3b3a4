#pragma once

// Re-reads the web config file when it changes, as exporter-toolkit does, so that a password
// rotated in a Kubernetes Secret takes effect without a restart. A file that does not load
// keeps the last good users (and says so once); a reload never turns authentication off (a
// file without users is ignored until a restart).

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

#include "web/basic_auth.h"

namespace ovn_raft {

class WebConfigWatcher {
 public:
  WebConfigWatcher(std::string path, BasicAuth& auth);
  // Cheap when called often: looks at the file at most once a second.
  void Poll();

 private:
  struct Stamp {
    std::int64_t mtime_ns = 0, size = 0;
    std::uint64_t inode = 0;
    bool operator==(const Stamp&) const = default;
  };
  static Stamp StampOf(const std::string& path);

  const std::string path_;
  BasicAuth& auth_;
  std::mutex mu_;
  std::chrono::steady_clock::time_point checked_;
  Stamp last_;
  bool tls_at_start_ = false;  // whether the file had tls_server_config at start
};

}  // namespace ovn_raft
