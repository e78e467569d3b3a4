#include "exporter/endpoints.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <string>

#include "metrics/family_builder.h"
#include "metrics/process_metrics.h"
#include "metrics/raft_metrics.h"
#include "metrics/text_exposition.h"
#include "parsers/status_json.h"

namespace ovn_raft {
namespace {

HttpResponse Text(int status, std::string body) {
  return HttpResponse{status, "text/plain; charset=utf-8", std::move(body), {}};
}

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

void WriteString(JsonWriter& w, const char* key, const std::string& value) {
  w.Key(key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void WriteError(JsonWriter& w, const char* key, const Error& e) {
  w.Key(key);
  w.StartObject();
  WriteString(w, "reason", ErrorCodeName(e.code));
  WriteString(w, "message", e.message);
  w.EndObject();
}

}  // namespace

std::string SnapshotToJson(const Snapshot& snapshot) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("taken_at");
  w.Double(std::chrono::duration<double>(snapshot.taken_at.time_since_epoch()).count());
  w.Key("databases");
  w.StartArray();
  for (const auto& r : snapshot.databases) {
    w.StartObject();
    WriteString(w, "name", r.target.name);
    WriteString(w, "ctl", r.target.ctl_path);
    WriteString(w, "sock", r.target.sock_path);
    w.Key("up");
    w.Bool(r.up());
    if (r.status_error) WriteError(w, "error", *r.status_error);
    if (r.server_error) WriteError(w, "server_error", *r.server_error);
    if (r.server) {
      const auto& s = *r.server;
      w.Key("server");
      w.StartObject();
      WriteString(w, "model", s.model);
      w.Key("connected");
      w.Bool(s.connected);
      w.Key("leader");
      w.Bool(s.leader);
      if (s.cid) WriteString(w, "cid", *s.cid);
      if (s.sid) WriteString(w, "sid", *s.sid);
      if (s.index) {
        w.Key("index");
        w.Uint64(*s.index);
      }
      w.EndObject();
    }
    if (r.status) {
      // The parse-status JSON, written by status_json.cc, embedded as it is.
      const std::string status = ClusterStatusToJson(*r.status, false);
      w.Key("status");
      w.RawValue(status.data(), status.size(), rapidjson::kObjectType);
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

Endpoints::Endpoints(Config config, ReadCoordinator& coordinator, std::unique_ptr<BasicAuth> auth)
    : config_(std::move(config)), coordinator_(coordinator), auth_(std::move(auth)) {}

HttpResponse Endpoints::Handle(const HttpRequest& request) {
  if (request.method != "GET" && request.method != "HEAD") {
    HttpResponse r = Text(405, "only GET and HEAD\n");
    r.headers.emplace_back("Allow", "GET, HEAD");
    return r;
  }
  // Liveness stays open so that kubelet probes need no credentials.
  if (request.path == "/healthz") return Text(200, "ok\n");
  if (auth_) {
    switch (auth_->Check(request.authorization)) {
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

// The scraper's own deadline, less a margin for rendering, bounds the read deadline.
std::chrono::milliseconds Endpoints::ReadTimeout(const HttpRequest& request) const {
  auto timeout = config_.timeout;
  if (!request.scrape_timeout.empty()) {
    char* end = nullptr;
    // Clamped before the conversion: "1e300" must not overflow an integer.
    const double seconds = std::min(std::strtod(request.scrape_timeout.c_str(), &end), 3600.0);
    if (end != request.scrape_timeout.c_str() && std::isfinite(seconds) && seconds > 0) {
      const auto budget = std::chrono::milliseconds(static_cast<long>(seconds * 1000) - 250);
      timeout = std::max(std::chrono::milliseconds(100), std::min(timeout, budget));
    }
  }
  return timeout;
}

// A snapshot (shared or reused, see ReadCoordinator) and fresh families built from it, then
// the exporter's own series.
HttpResponse Endpoints::Metrics(const HttpRequest& request) {
  const auto snapshot = coordinator_.Get(ReadTimeout(request));
  auto families = BuildRaftMetrics(*snapshot, coordinator_.errors(), coordinator_.rounds(),
                                   config_.expectations());
  FamilyBuilder b;
  b.Gauge("ovn_raft_exporter_build_info", "Version of ovn-raft-exporter; always 1.",
          {{"version", OVN_RAFT_VERSION}, {"revision", OVN_RAFT_REVISION}}, 1);
  for (const auto& [reason, count] :
       {std::pair{"auth_failed", &auth_failed_}, std::pair{"auth_throttled", &auth_throttled_}}) {
    b.Counter("ovn_raft_exporter_http_rejections_total",
              "Requests refused: wrong or missing credentials (401), or too many password "
              "checks at once (429).",
              {{"reason", reason}}, static_cast<double>(count->load()));
  }
  for (auto& f : b.Take()) families.push_back(std::move(f));
  for (auto& f : CollectProcessMetrics()) families.push_back(std::move(f));
  return HttpResponse{
      200, "text/plain; version=0.0.4; charset=utf-8", TextExposition(families), {}};
}

HttpResponse Endpoints::Ready() {
  const auto snapshot = coordinator_.Get(config_.timeout);
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
  return HttpResponse{
      200, "application/json", SnapshotToJson(*coordinator_.Get(config_.timeout)), {}};
}

HttpResponse Endpoints::Landing() const {
  std::string dbs;
  for (const auto& d : config_.databases) {
    dbs += "<li><code>" + d.name + "</code>: " + d.ctl_path +
           (d.sock_path.empty() ? "" : ", " + d.sock_path) + "</li>";
  }
  const std::string html =
      "<!DOCTYPE html><html><head><title>OVN Raft Exporter</title></head><body>"
      "<h1>OVN Raft Exporter</h1><p>Version " OVN_RAFT_VERSION " (" OVN_RAFT_REVISION
      ")</p><ul><li><a href=\"" +
      config_.telemetry_path +
      "\">Metrics</a></li><li><a href=\"/status\">Parsed status (JSON)</a></li>"
      "<li><a href=\"/readyz\">Readiness</a></li><li><a href=\"/healthz\">Health</a></li></ul>"
      "<h2>Databases</h2><ul>" +
      dbs + "</ul></body></html>";
  return HttpResponse{200, "text/html; charset=utf-8", html, {}};
}

}  // namespace ovn_raft
