#include "web/request_guards.h"

#include <algorithm>
#include <string>
#include <utility>

namespace ovn_raft {
namespace {

HttpResponse Text(int status, std::string body) {
  return HttpResponse{status, "text/plain; charset=utf-8", std::move(body), {}};
}

}  // namespace

RequestGuards::RequestGuards(GuardSettings settings, int max_connections,
                             std::vector<std::string> open_paths)
    : open_paths_(std::move(open_paths)),
      auth_(std::move(settings.auth)),
      sources_(SourceLimiter::ShareOf(max_connections)) {
  headers_.Replace(std::move(settings.headers));
  rate_limiter_.Set(settings.rate_limit);
  if (auth_ && !settings.config_file.empty()) {
    watcher_ = std::make_unique<WebConfigWatcher>(settings.config_file, *auth_, settings.stamp,
                                                  settings.tls_on, &rate_limiter_);
    watcher_->Follow(headers_);
  }
}

bool RequestGuards::Reload() {
  if (!watcher_) return false;
  watcher_->Reload();
  return true;
}

WebRefusals RequestGuards::refusals() const {
  return {auth_failed_.load(), auth_throttled_.load(), source_busy_.load(), rate_limited_.load()};
}

HttpResponse RequestGuards::Handle(const HttpRequest& request, const Routes& routes) {
  HttpResponse response = Guarded(request, routes);
  headers_.AddTo(response);
  return response;
}

HttpResponse RequestGuards::Guarded(const HttpRequest& request, const Routes& routes) {
  if (request.method != "GET" && request.method != "HEAD") {
    HttpResponse r = Text(405, "only GET and HEAD\n");
    r.headers.emplace_back("Allow", "GET, HEAD");
    return r;
  }
  if (std::find(open_paths_.begin(), open_paths_.end(), request.path) != open_paths_.end()) {
    return routes(request);
  }
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
  return routes(request);
}

}  // namespace ovn_raft
