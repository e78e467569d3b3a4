#include "exporter/endpoints.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <thread>
#include <utility>

#include "base/build_version.h"
#include "exporter/status_document.h"
#include "metrics/family_builder.h"
#include "metrics/process_metrics.h"
#include "metrics/raft_metrics.h"
#include "metrics/text_exposition.h"

namespace ovn_raft {
namespace {

HttpResponse Text(int status, std::string body) {
  return HttpResponse{status, "text/plain; charset=utf-8", std::move(body), {}};
}

}  // namespace

Endpoints::Endpoints(Config config, ReadCoordinator& coordinator, std::unique_ptr<BasicAuth> auth,
                     WebConfigWatcher::Stamp web_config_stamp, bool tls_on,
                     std::optional<SocketDiscovery> discovery, int render_threads)
    : config_(std::move(config)),
      coordinator_(coordinator),
      auth_(std::move(auth)),
      discovery_(std::move(discovery)),
      sources_(SourceLimiter::ShareOf(config_.web_max_connections)),
      render_(render_threads >= 0
                  ? render_threads
                  : static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 4u))) {
  if (auth_ && !config_.web_config_file.empty()) {
    watcher_ = std::make_unique<WebConfigWatcher>(config_.web_config_file, *auth_, web_config_stamp,
                                                  tls_on, &rate_limiter_);
    watcher_->Follow(headers_);
  }
}

bool Endpoints::ReloadWebConfig() {
  if (!watcher_) return false;
  watcher_->Reload();
  return true;
}

HttpResponse Endpoints::Handle(const HttpRequest& request) {
  HttpResponse response = Route(request);
  headers_.AddTo(response);
  return response;
}

HttpResponse Endpoints::Route(const HttpRequest& request) {
  if (request.method != "GET" && request.method != "HEAD") {
    HttpResponse r = Text(405, "only GET and HEAD\n");
    r.headers.emplace_back("Allow", "GET, HEAD");
    return r;
  }
  // Liveness stays open so that kubelet probes need no credentials.
  if (request.path == "/healthz") return Text(200, "ok\n");
  const SourceLimiter::Slot slot(sources_, request.source);
  if (!slot.admitted()) {
    ++source_busy_;
    HttpResponse r = Text(429, "too many requests from this address at once, retry\n");
    r.headers.emplace_back("Retry-After", "1");
    return r;
  }
  if (watcher_) watcher_->Poll();
  if (!rate_limiter_.Allow()) {
    ++rate_limited_;
    HttpResponse r = Text(429, "rate limit reached (rate_limit in the web config), retry\n");
    r.headers.emplace_back("Retry-After", std::to_string(rate_limiter_.RetryAfterSeconds()));
    return r;
  }
  if (auth_) {
    switch (auth_->Check(request.authorization, request.source)) {
      case AuthResult::kAllowed:
        break;
      case AuthResult::kThrottled: {
        ++auth_throttled_;
        HttpResponse r = Text(429, "too many password checks at once, retry\n");
        r.headers.emplace_back("Retry-After", "1");
        return r;
      }
      case AuthResult::kDenied: {
        ++auth_failed_;
        HttpResponse r = Text(401, "unauthorized\n");
        r.headers.emplace_back("WWW-Authenticate", "Basic realm=\"ovn-raft-exporter\"");
        return r;
      }
    }
  }
  if (request.path == config_.telemetry_path) return Metrics(request);
  if (request.path == "/readyz") return Ready();
  if (request.path == "/status") return Status();
  if (request.path == "/") return Landing();
  return Text(404, "not found\n");
}

// How long this request waits for the round: the scraper's own deadline less a margin for
// rendering and the network (a fifth of it, at most half a second, as blackbox_exporter's
// --timeout-offset), else the round's own deadline and a margin (ReadCoordinator's round limit
// in main). It bounds this request only: the round reads with --ovsdb.timeout whatever a client
// says, and a request whose wait ends first serves the databases read by then.
std::chrono::milliseconds Endpoints::Wait(const HttpRequest& request) const {
  auto timeout = config_.timeout + std::chrono::seconds(1);
  if (!request.scrape_timeout.empty()) {
    char* end = nullptr;
    // Clamped before the conversion: "1e300" must not overflow an integer.
    const double seconds = std::min(std::strtod(request.scrape_timeout.c_str(), &end), 3600.0);
    if (end != request.scrape_timeout.c_str() && std::isfinite(seconds) && seconds > 0) {
      const auto scraper = std::chrono::milliseconds(static_cast<long>(seconds * 1000));
      const auto margin =
          std::min<std::chrono::milliseconds>(scraper / 5, std::chrono::milliseconds(500));
      timeout = std::max(std::chrono::milliseconds(50), std::min(timeout, scraper - margin));
    }
  }
  return timeout;
}

// A snapshot (shared or reused, see ReadCoordinator), the families built from it, then the
// exporter's own series.
HttpResponse Endpoints::Metrics(const HttpRequest& request) {
  const auto snapshot = coordinator_.Get(Wait(request));
  if (!snapshot) return Unfinished();
  // On this worker when it is one of the core, else on the pool's threads (task_pool.h says why).
  HttpResponse page{200, "text/plain; version=0.0.4; charset=utf-8", "", {}};
  render_.Run([&] {
    auto families =
        BuildRaftMetrics(*snapshot, coordinator_.errors(), coordinator_.rounds(), config_.expected);
    for (auto& f : OwnFamilies()) families.push_back(std::move(f));
    page.body = TextExposition(families);
    // The snapshot this page replaces is freed here too, when this was its last holder.
    std::shared_ptr<const Snapshot> previous;
    {
      const std::lock_guard<std::mutex> lock(last_mu_);
      previous = std::exchange(last_rendered_, snapshot);
    }
  });
  return page;
}

// The exporter's build, its refusals and the process: what needs no snapshot.
std::vector<prometheus::MetricFamily> Endpoints::OwnFamilies() const {
  FamilyBuilder b;
  b.Gauge("ovn_raft_exporter_build_info", "Version of ovn-raft-exporter; always 1.",
          {{"version", kBuildVersion}, {"revision", kBuildRevision}}, 1);
  for (const auto& [reason, count] :
       {std::pair{"auth_failed", &auth_failed_}, std::pair{"auth_throttled", &auth_throttled_},
        std::pair{"source_busy", &source_busy_}, std::pair{"rate_limited", &rate_limited_}}) {
    b.Counter("ovn_raft_exporter_http_rejections_total",
              "Requests refused: wrong or missing credentials (401), too many password checks "
              "at once (429), too many requests from one address at once (429), or past the "
              "web config's rate_limit (429).",
              {{"reason", reason}}, static_cast<double>(count->load()));
  }
  auto families = b.Take();
  for (auto& f : CollectProcessMetrics()) families.push_back(std::move(f));
  return families;
}

// A request whose wait ended before the round it joined.
HttpResponse Endpoints::Unfinished() {
  return Text(503, "the read of ovsdb-server did not end within this request's deadline\n");
}

HttpResponse Endpoints::Ready() {
  const auto snapshot = coordinator_.Get(Wait({}));
  if (!snapshot) return Unfinished();
  std::string failing;
  for (const auto& db : snapshot->databases) {
    if (!db.up()) {
      const auto e = db.primary_error();
      failing += db.target.name + ": " + (e ? e->message : "not read") + "\n";
    }
  }
  if (failing.empty()) return Text(200, "ready\n");
  return Text(503, failing);
}

HttpResponse Endpoints::Status() {
  const auto snapshot = coordinator_.Get(Wait({}));
  if (!snapshot) return Unfinished();
  HttpResponse page{200, "application/json", "", {}};
  render_.Run([&] {
    page.body = SnapshotToJson(*snapshot, discovery_ ? &*discovery_ : nullptr, config_.expected);
  });
  return page;
}

HttpResponse Endpoints::Landing() const {
  std::string dbs;
  for (const auto& d : config_.databases) {
    dbs += "<li><code>" + d.name + "</code>: " + d.ctl_path +
           (d.sock_path.empty() ? "" : ", " + d.sock_path) + "</li>";
  }
  const std::string html =
      "<!DOCTYPE html><html><head><title>OVN Raft Exporter</title></head><body>"
      "<h1>OVN Raft Exporter</h1><p>Version " +
      std::string(kBuildVersion) + " (" + kBuildRevision + ")</p><ul><li><a href=\"" +
      config_.telemetry_path +
      "\">Metrics</a></li><li><a href=\"/status\">Parsed status (JSON)</a></li>"
      "<li><a href=\"/readyz\">Readiness</a></li><li><a href=\"/healthz\">Health</a></li></ul>"
      "<h2>Databases</h2><ul>" +
      dbs + "</ul></body></html>";
  return HttpResponse{200, "text/html; charset=utf-8", html, {}};
}

}  // namespace ovn_raft
