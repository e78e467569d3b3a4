#include "web/web_server.h"

#include <algorithm>
#include <thread>
#include <utility>

#include "base/task_pool.h"
#include "web/http_server.h"
#include "web/request_guards.h"
#include "web/tls_context.h"
#include "web/web_config.h"
#include "web/worker_gate.h"

namespace ovn_raft {
namespace {

// `items` joined with commas, each as `text` gives it.
template <typename List, typename Text>
std::string Commas(const List& items, Text text) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + text(item);
  return out;
}

}  // namespace

struct WebServer::Prepared {
  WebServerOptions options;
  std::vector<InheritedSocket> inherited;
  GuardSettings guards;
  std::unique_ptr<TlsContext> tls;
};

Result<std::unique_ptr<WebServer>, WebFailure> WebServer::Prepare(WebServerOptions options) {
  Prepared p;
  if (options.systemd_socket) {
    auto taken = TakeSystemdSockets();
    if (!taken) {
      return WebFailure{"cannot serve the sockets systemd passes (--web.systemd-socket)",
                        taken.error(), 1};
    }
    p.inherited = std::move(taken).value();
  }
  const std::string& path = options.config_file;
  if (!path.empty()) {
    const auto invalid = [](std::string error) {
      return WebFailure{"invalid web config", std::move(error), 2};
    };
    p.guards.config_file = path;
    // Before the load: a change made while it reads is then seen by the watcher.
    p.guards.stamp = WebConfigWatcher::StampOf(path);
    auto web = LoadWebConfig(path);
    if (!web) return invalid(web.error().message);
    p.guards.auth = std::make_unique<BasicAuth>(web.value().basic_auth_users);
    p.guards.headers = web.value().headers;
    p.guards.rate_limit = web.value().rate_limit;
    if (web.value().tls) {
      auto created = TlsContext::Create(*web.value().tls, path);
      if (!created) return invalid(created.error().message);
      p.tls = std::move(created).value();
      p.guards.tls_on = true;
    }
  }
  p.options = std::move(options);
  return std::unique_ptr<WebServer>(new WebServer(std::move(p)));
}

WebServer::WebServer(Prepared p)
    : options_(std::move(p.options)),
      inherited_(std::move(p.inherited)),
      systemd_socket_(!inherited_.empty()),
      tls_(std::move(p.tls)),
      guards_(std::make_unique<RequestGuards>(std::move(p.guards), options_.max_connections,
                                              options_.open_paths)) {
  // The passed sockets take the place of the listen addresses.
  addresses_ = inherited_.empty()
                   ? Commas(options_.listen_addresses, [](const auto& a) { return a.spec; })
                   : Commas(inherited_, [](const auto& s) { return s.address; });
}

WebServer::~WebServer() {
  http_.reset();  // its workers stop before the guards and the pool they use
}

std::optional<WebFailure> WebServer::Start(Routes routes) {
  routes_ = std::move(routes);
  // At least two: rounds are one at a time (single flight), so one on the pool never holds up
  // the rendering of a page.
  work_ = std::make_unique<TaskPool>(
      static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 2u, 4u)));
  http_ = std::make_unique<HttpServer>(
      [this](const HttpRequest& request) { return guards_->Handle(request, routes_); });
  HttpServerOptions http;
  http.threads = options_.max_connections;
  http.request_timeout = options_.request_timeout;
  http.allowed_sources = options_.allowed_sources;
  http.tls = tls_.get();
  http.inherited = inherited_;
  if (auto failed = http_->Start(options_.listen_addresses, http)) {
    return WebFailure{"cannot start HTTP server", failed->message, 1};
  }
  return std::nullopt;
}

bool WebServer::Reload() { return guards_->Reload(); }

int WebServer::Drain(std::chrono::milliseconds grace) { return http_ ? http_->Drain(grace) : 0; }

void WebServer::RunErased(void (*invoke)(void*), void* task) {
  if (work_ == nullptr || !WorkerGate::HandsWorkOff()) {
    invoke(task);
    return;
  }
  work_->Run([&] { invoke(task); });
}

WebRefusals WebServer::refusals() const { return guards_->refusals(); }

int WebServer::port() const { return http_ ? http_->port() : 0; }

bool WebServer::auth_on() const { return guards_->auth_on(); }

}  // namespace ovn_raft
