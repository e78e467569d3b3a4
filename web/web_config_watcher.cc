#include "web/web_config_watcher.h"

#include <sys/stat.h>

#include "base/log.h"
#include "web/web_config.h"

namespace ovn_raft {

WebConfigWatcher::WebConfigWatcher(std::string path, BasicAuth& auth, Stamp loaded,
                                   bool tls_at_start, RateLimiter* rate_limiter)
    : path_(std::move(path)),
      auth_(auth),
      rate_limiter_(rate_limiter),
      last_(loaded),
      tls_at_start_(tls_at_start) {}

WebConfigWatcher::Stamp WebConfigWatcher::StampOf(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return {};
  return {static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec,
          static_cast<std::int64_t>(st.st_size), static_cast<std::uint64_t>(st.st_ino),
          static_cast<std::uint64_t>(st.st_dev)};
}

void WebConfigWatcher::Poll() {
  const auto now = std::chrono::steady_clock::now();
  {
    const std::lock_guard<std::mutex> lock(mu_);
    if (now - checked_ < std::chrono::seconds(1)) return;
    checked_ = now;
    // A Secret's files are symlinks into a directory swapped at once: stat follows them.
    const Stamp stamp = StampOf(path_);
    if (stamp == last_) return;
    last_ = stamp;
  }
  Load();
}

void WebConfigWatcher::Reload() {
  {
    const std::lock_guard<std::mutex> lock(mu_);
    last_ = StampOf(path_);  // before the read: a change made during it is seen next time
  }
  Load();
}

void WebConfigWatcher::Load() {
  const std::lock_guard<std::mutex> lock(load_mu_);
  auto web = LoadWebConfig(path_);
  if (!web) {
    Log(LogLevel::kWarn, "web config reload failed, keeping the last good one",
        {{"error", web.error().message}});
  } else if (web.value().basic_auth_users.empty() && auth_.users() > 0) {
    Log(LogLevel::kWarn,
        "web config reload ignored: it has no users and would turn "
        "authentication off; restart to do that",
        {{"file", path_}});
  } else {
    const std::size_t users = web.value().basic_auth_users.size();
    auth_.Replace(std::move(web.value().basic_auth_users));
    if (headers_ != nullptr) headers_->Replace(std::move(web.value().headers));
    if (rate_limiter_ != nullptr) rate_limiter_->Set(web.value().rate_limit);
    Log(LogLevel::kInfo, "web config reloaded",
        {{"file", path_}, {"users", std::to_string(users)}});
    // The listeners were made plain at start: TLS cannot be turned on by a reload. (With TLS on,
    // its changes are applied by the TlsContext.)
    if (web.value().tls && !tls_at_start_) {
      Log(LogLevel::kWarn,
          "tls_server_config added by a reload is not applied: TLS starts only with a restart; "
          "still serving plain HTTP",
          {{"file", path_}});
    }
  }
}

}  // namespace ovn_raft
