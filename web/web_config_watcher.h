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
#include "web/rate_limiter.h"
#include "web/response_headers.h"

namespace ovn_raft {

class WebConfigWatcher {
 public:
  // The file's identity, size and time of change.
  struct Stamp {
    std::int64_t mtime_ns = 0, size = 0;
    std::uint64_t inode = 0, device = 0;
    bool operator==(const Stamp&) const = default;
  };
  static Stamp StampOf(const std::string& path);

  // `loaded`: the file's stamp taken before the load that gave `auth` its users, so that a
  // change made while it loaded is seen by the first Poll. `tls_at_start`: whether that load
  // turned TLS on (a reload cannot). `rate_limiter`, when given, takes each reload's rate_limit.
  WebConfigWatcher(std::string path, BasicAuth& auth, Stamp loaded, bool tls_at_start,
                   RateLimiter* rate_limiter = nullptr);
  // Cheap when called often: looks at the file at most once a second.
  void Poll();
  // Reloads now, changed or not (SIGHUP).
  void Reload();
  // Every good reload replaces `headers` with the file's http_server_config.headers.
  void Follow(ResponseHeaders& headers) { headers_ = &headers; }

 private:
  void Load();

  const std::string path_;
  BasicAuth& auth_;
  ResponseHeaders* headers_ = nullptr;
  RateLimiter* const rate_limiter_;
  std::mutex mu_;
  std::mutex load_mu_;  // one load at a time, so that an older read never lands last
  std::chrono::steady_clock::time_point checked_;
  Stamp last_;
  bool tls_at_start_ = false;  // whether the file had tls_server_config at start
};

}  // namespace ovn_raft
