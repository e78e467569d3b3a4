#pragma once

// What every request passes before an exporter's routes, in this order: the method (GET and
// HEAD only), then, except for the open paths (liveness, so that kubelet probes need no
// credentials), the address's share of the workers, a look at the web config file (reloaded
// when it changed), the web config's rate_limit and its basic_auth_users. A refusal is
// answered here with its page (405, 429 with Retry-After, 401 with WWW-Authenticate) and
// counted; the web config's headers go on every page. Thread-safe.

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "web/basic_auth.h"
#include "web/http_message.h"
#include "web/rate_limiter.h"
#include "web/response_headers.h"
#include "web/source_limiter.h"
#include "web/web_config_watcher.h"
#include "web/web_server.h"

namespace ovn_raft {

// What the web config file sets at start: the users (kept even without any, so that a reload
// of the file can add them), headers and the rate limit, and the stamp the file had before it
// was read. No file: no users, nothing to watch.
struct GuardSettings {
  std::string config_file;  // "": none
  std::unique_ptr<BasicAuth> auth;
  std::map<std::string, std::string> headers;
  RateLimit rate_limit;
  WebConfigWatcher::Stamp stamp;
  bool tls_on = false;  // whether the file turned TLS on (a reload cannot)
};

class RequestGuards {
 public:
  using Routes = std::function<HttpResponse(const HttpRequest&)>;

  // `max_connections`: the workers an address's share is taken of (SourceLimiter::ShareOf).
  RequestGuards(GuardSettings settings, int max_connections, std::vector<std::string> open_paths);
  RequestGuards(const RequestGuards&) = delete;
  RequestGuards& operator=(const RequestGuards&) = delete;

  // `routes`' page for `request`, or the refusal's.
  HttpResponse Handle(const HttpRequest& request, const Routes& routes);
  // SIGHUP: re-reads the web config file now; false when there is none.
  bool Reload();
  WebRefusals refusals() const;
  bool auth_on() const { return auth_ && auth_->users() > 0; }

 private:
  HttpResponse Guarded(const HttpRequest& request, const Routes& routes);

  const std::vector<std::string> open_paths_;
  std::unique_ptr<BasicAuth> auth_;  // with watcher_, when a web config file is given
  RateLimiter rate_limiter_;
  ResponseHeaders headers_;
  std::unique_ptr<WebConfigWatcher> watcher_;
  SourceLimiter sources_;
  std::atomic<std::uint64_t> auth_failed_{0}, auth_throttled_{0}, source_busy_{0}, rate_limited_{0};
};

}  // namespace ovn_raft
