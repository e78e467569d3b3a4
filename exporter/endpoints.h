#pragma once

// What each URL serves: / (landing page), /healthz, /readyz, /status (parsed view as JSON) and
// the telemetry path. Basic auth, when configured, guards all but /healthz.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "base/task_pool.h"
#include "exporter/config.h"
#include "metrics/metric_family.h"
#include "reader/read_coordinator.h"
#include "reader/socket_discovery.h"
#include "web/basic_auth.h"
#include "web/http_server.h"
#include "web/rate_limiter.h"
#include "web/response_headers.h"
#include "web/source_limiter.h"
#include "web/web_config_watcher.h"

namespace ovn_raft {

class Endpoints {
 public:
  // `web_config_stamp`: the web config file's stamp taken before it was loaded for `auth`;
  // `tls_on`: whether that file turned TLS on; `discovery`: where the databases were found,
  // when --ovsdb.database was not given; `render_threads`: the threads that render the pages that
  // workers outside the web edge's core ask for (0: the worker that asks; task_pool.h), by
  // default as many as cores, up to 4.
  Endpoints(Config config, ReadCoordinator& coordinator, std::unique_ptr<BasicAuth> auth,
            WebConfigWatcher::Stamp web_config_stamp = {}, bool tls_on = false,
            std::optional<SocketDiscovery> discovery = std::nullopt, int render_threads = -1);
  HttpResponse Handle(const HttpRequest& request);
  // http_server_config.headers, set at start and replaced by each reload of the web config.
  ResponseHeaders& response_headers() { return headers_; }
  // SIGHUP: re-reads the web config file now; false when there is none.
  bool ReloadWebConfig();
  // The web config's rate_limit (none until set); a reload of the file sets it again.
  RateLimiter& rate_limiter() { return rate_limiter_; }

 private:
  HttpResponse Route(const HttpRequest& request);
  HttpResponse Metrics(const HttpRequest& request);
  std::vector<prometheus::MetricFamily> OwnFamilies() const;
  HttpResponse Ready();
  HttpResponse Status();
  HttpResponse Landing() const;
  std::chrono::milliseconds Wait(const HttpRequest& request) const;
  static HttpResponse Unfinished();

  const Config config_;
  ReadCoordinator& coordinator_;
  std::unique_ptr<BasicAuth> auth_;
  RateLimiter rate_limiter_;
  const std::optional<SocketDiscovery> discovery_;
  ResponseHeaders headers_;
  std::unique_ptr<WebConfigWatcher> watcher_;  // with auth_, when a web config file is given
  SourceLimiter sources_;
  // Pages asked for by workers outside the core are rendered here (web/worker_gate.h).
  TaskPool render_;
  // Requests refused at the edge, for ovn_raft_exporter_http_rejections_total.
  std::atomic<std::uint64_t> auth_failed_{0}, auth_throttled_{0}, source_busy_{0}, rate_limited_{0};
  std::mutex last_mu_;
  // The last page's snapshot, so that it is freed where pages are rendered (task_pool.h says
  // why) rather than on whichever worker's round replaced it. Guarded by last_mu_.
  std::shared_ptr<const Snapshot> last_rendered_;
};

}  // namespace ovn_raft
