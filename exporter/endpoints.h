#pragma once

// What each URL serves: / (landing page), /healthz, /readyz, /status (parsed view as JSON) and
// the telemetry path. The web edge (web/web_server.h) guards them all but /healthz.

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "exporter/config.h"
#include "metrics/metric_family.h"
#include "reader/read_coordinator.h"
#include "reader/socket_discovery.h"
#include "web/web_server.h"

namespace ovn_raft {

class Endpoints {
 public:
  // `discovery`: where the databases were found, when --ovsdb.database was not given; `web`:
  // the web edge that serves these routes, whose refusals the page counts and where pages are
  // rendered (WebServer::RunWork); none: no refusals, rendered on the caller.
  Endpoints(Config config, ReadCoordinator& coordinator,
            std::optional<SocketDiscovery> discovery = std::nullopt, WebServer* web = nullptr);
  HttpResponse Handle(const HttpRequest& request);
  // The paths the web edge serves to anyone, with no credentials or limits: liveness, so that
  // kubelet probes need no credentials.
  static std::vector<std::string> OpenPaths() { return {"/healthz"}; }

 private:
  HttpResponse Metrics(const HttpRequest& request);
  std::vector<prometheus::MetricFamily> OwnFamilies() const;
  HttpResponse Ready();
  HttpResponse Status();
  HttpResponse Landing() const;
  std::chrono::milliseconds Wait(const HttpRequest& request) const;
  static HttpResponse Unfinished();
  template <typename Task>
  void Render(Task&& task) {
    if (web_ != nullptr) {
      web_->RunWork(task);
    } else {
      task();
    }
  }

  const Config config_;
  ReadCoordinator& coordinator_;
  const std::optional<SocketDiscovery> discovery_;
  WebServer* const web_;
  std::mutex last_mu_;
  // The last page's snapshot, so that it is freed where pages are rendered (RunWork says why)
  // rather than on whichever worker's round replaced it. Guarded by last_mu_.
  std::shared_ptr<const Snapshot> last_rendered_;
  // The last page's database families, for the next page to fill again (BuildRaftMetrics);
  // empty while a page holds them. Guarded by last_mu_.
  std::vector<prometheus::MetricFamily> last_families_;
};

}  // namespace ovn_raft
