#include "exporter/endpoints.h"

#include <algorithm>
#include <cmath>
#include <string>
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

Endpoints::Endpoints(Config config, ReadCoordinator& coordinator,
                     std::optional<SocketDiscovery> discovery, WebServer* web)
    : config_(std::move(config)),
      coordinator_(coordinator),
      discovery_(std::move(discovery)),
      web_(web) {}

// The web edge answered what is not a GET or HEAD, and checked the rest but the open paths.
HttpResponse Endpoints::Handle(const HttpRequest& request) {
  if (request.path == "/healthz") return Text(200, "ok\n");
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
  HttpResponse page{200, "text/plain; version=0.0.4; charset=utf-8", "", {}};
  Render([&] {
    std::vector<prometheus::MetricFamily> reuse;
    {
      const std::lock_guard<std::mutex> lock(last_mu_);
      reuse.swap(last_families_);
    }
    auto families = BuildRaftMetrics(*snapshot, coordinator_.errors(), coordinator_.rounds(),
                                     config_.expected, std::move(reuse));
    const std::size_t database_families = families.size();
    for (auto& f : OwnFamilies()) families.push_back(std::move(f));
    page.body = TextExposition(families);
    families.resize(database_families);
    // The snapshot this page replaces is freed here too, when this was its last holder.
    std::shared_ptr<const Snapshot> previous;
    {
      const std::lock_guard<std::mutex> lock(last_mu_);
      previous = std::exchange(last_rendered_, snapshot);
      last_families_.swap(families);
    }
  });
  return page;
}

// The exporter's build, its refusals and the process: what needs no snapshot.
std::vector<prometheus::MetricFamily> Endpoints::OwnFamilies() const {
  FamilyBuilder b;
  b.Gauge("ovn_raft_exporter_build_info", "Version of ovn-raft-exporter; always 1.",
          {{"version", kBuildVersion}, {"revision", kBuildRevision}}, 1);
  const WebRefusals refused = web_ != nullptr ? web_->refusals() : WebRefusals{};
  for (const auto& [reason, count] : {std::pair{"auth_failed", refused.auth_failed},
                                      std::pair{"auth_throttled", refused.auth_throttled},
                                      std::pair{"source_busy", refused.source_busy},
                                      std::pair{"rate_limited", refused.rate_limited}}) {
    b.Counter("ovn_raft_exporter_http_rejections_total",
              "Requests refused: wrong or missing credentials (401), too many password checks "
              "at once (429), too many requests from one address at once (429), or past the "
              "web config's rate_limit (429).",
              {{"reason", reason}}, static_cast<double>(count));
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
  Render([&] {
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
