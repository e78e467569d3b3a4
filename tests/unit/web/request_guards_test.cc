// The checks before an exporter's routes, with no server around them: the routes are a
// function, the requests plain structs.
#include "web/request_guards.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "support/bcrypt.h"

namespace ovn_raft {
namespace {

HttpRequest Get(std::string path, std::string authorization = "", std::string source = "10.0.0.1") {
  return {"GET", std::move(path), std::move(authorization), "", "", std::move(source)};
}

// The routes: every page 200, counting the requests that reached them.
struct Routes {
  int reached = 0;
  std::function<HttpResponse(const HttpRequest&)> inner;
  RequestGuards::Routes Get() {
    return [this](const HttpRequest& r) {
      ++reached;
      return inner ? inner(r) : HttpResponse{200, "text/plain", "ok\n", {}};
    };
  }
};

GuardSettings WithUser(const std::string& user, const std::string& password) {
  GuardSettings s;
  s.auth = std::make_unique<BasicAuth>(
      std::map<std::string, std::string>{{user, testing::Bcrypt(password, 4)}});
  return s;
}

TEST(RequestGuardsTest, BasicAuthGuardsAllButTheOpenPaths) {
  RequestGuards guards(WithUser("u", "pw"), 16, {"/healthz"});
  Routes routes;
  const auto denied = guards.Handle(Get("/metrics"), routes.Get());
  EXPECT_EQ(denied.status, 401);
  ASSERT_EQ(denied.headers.size(), 1u);
  EXPECT_EQ(denied.headers[0].first, "WWW-Authenticate");
  EXPECT_EQ(guards.Handle(Get("/status", "Basic dTpiYWQ="), routes.Get()).status, 401);   // u:bad
  EXPECT_EQ(guards.Handle(Get("/metrics", "Basic dTpwdw=="), routes.Get()).status, 200);  // u:pw
  EXPECT_EQ(guards.Handle(Get("/healthz"), routes.Get()).status, 200);
  EXPECT_EQ(routes.reached, 2);
  EXPECT_TRUE(guards.auth_on());
  EXPECT_EQ(guards.refusals().auth_failed, 2u);
  EXPECT_EQ(guards.refusals().auth_throttled, 0u);
}

// Before anything else, the open paths and credentials included: a 405 names what is served.
TEST(RequestGuardsTest, OnlyGetAndHeadReachTheRoutes) {
  RequestGuards guards(WithUser("u", "pw"), 16, {"/healthz"});
  Routes routes;
  for (const char* method : {"POST", "PUT", "DELETE", "OPTIONS"}) {
    HttpRequest r = Get("/healthz");
    r.method = method;
    const auto page = guards.Handle(r, routes.Get());
    EXPECT_EQ(page.status, 405) << method;
    ASSERT_EQ(page.headers.size(), 1u);
    EXPECT_EQ(page.headers[0], (std::pair<std::string, std::string>{"Allow", "GET, HEAD"}));
  }
  HttpRequest head = Get("/healthz");
  head.method = "HEAD";
  EXPECT_EQ(guards.Handle(head, routes.Get()).status, 200);
  EXPECT_EQ(routes.reached, 1);
  EXPECT_EQ(guards.refusals().auth_failed, 0u);
}

// Requests of one address in flight at once, nested here instead of run on threads: past the
// address's share (SourceLimiter::ShareOf) the next one is refused; another address is not.
TEST(RequestGuardsTest, AnAddressPastItsShareIsRefusedAndCounted) {
  const int share = SourceLimiter::ShareOf(16);
  RequestGuards guards({}, 16, {"/healthz"});
  Routes routes;
  int depth = 0;
  std::vector<int> statuses;
  routes.inner = [&](const HttpRequest&) {
    if (++depth <= share) statuses.push_back(guards.Handle(Get("/metrics"), routes.Get()).status);
    return HttpResponse{200, "text/plain", "ok\n", {}};
  };
  EXPECT_EQ(guards.Handle(Get("/metrics"), routes.Get()).status, 200);
  ASSERT_EQ(static_cast<int>(statuses.size()), share);
  EXPECT_EQ(statuses.front(), 429);  // the innermost: the share's worth were in flight
  EXPECT_EQ(statuses.back(), 200);
  EXPECT_EQ(guards.refusals().source_busy, 1u);
  routes.inner = nullptr;
  EXPECT_EQ(guards.Handle(Get("/metrics"), routes.Get()).status, 200);  // all ended: admitted
}

TEST(RequestGuardsTest, TheRateLimitRefusesWithRetryAfterAndCounts) {
  GuardSettings s;
  s.rate_limit = {std::chrono::hours(1), 1};
  RequestGuards guards(std::move(s), 16, {"/healthz"});
  Routes routes;
  EXPECT_EQ(guards.Handle(Get("/metrics"), routes.Get()).status, 200);
  const auto refused = guards.Handle(Get("/metrics", "", "10.0.0.2"), routes.Get());
  EXPECT_EQ(refused.status, 429);
  ASSERT_EQ(refused.headers.size(), 1u);
  EXPECT_EQ(refused.headers[0].first, "Retry-After");
  EXPECT_EQ(guards.Handle(Get("/healthz"), routes.Get()).status, 200);  // liveness stays open
  EXPECT_EQ(guards.refusals().rate_limited, 1u);
  EXPECT_FALSE(guards.auth_on());
}

// The web config's headers go on every page, the refusals' included.
TEST(RequestGuardsTest, TheConfiguredHeadersGoOnEveryPage) {
  GuardSettings s = WithUser("u", "pw");
  s.headers = {{"X-Frame-Options", "deny"}};
  RequestGuards guards(std::move(s), 16, {"/healthz"});
  Routes routes;
  const auto has = [](const HttpResponse& r) {
    for (const auto& [name, value] : r.headers) {
      if (name == "X-Frame-Options" && value == "deny") return true;
    }
    return false;
  };
  EXPECT_TRUE(has(guards.Handle(Get("/metrics"), routes.Get())));  // 401
  EXPECT_TRUE(has(guards.Handle(Get("/healthz"), routes.Get())));
  HttpRequest post = Get("/metrics");
  post.method = "POST";
  EXPECT_TRUE(has(guards.Handle(post, routes.Get())));
}

TEST(RequestGuardsTest, WithoutAWebConfigFileThereIsNothingToReload) {
  RequestGuards guards({}, 16, {});
  EXPECT_FALSE(guards.Reload());
}

}  // namespace
}  // namespace ovn_raft
