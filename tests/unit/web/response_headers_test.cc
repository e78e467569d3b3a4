// http_server_config.headers on responses: every configured header once, blank ones unset, and
// a reload's set replacing the last.
#include "web/response_headers.h"

#include <gtest/gtest.h>

#include <string>

namespace ovn_raft {
namespace {

std::string Value(const HttpResponse& r, const std::string& name) {
  std::string found;
  int count = 0;
  for (const auto& [n, v] : r.headers) {
    if (n == name) {
      found = v;
      ++count;
    }
  }
  return count > 1 ? "(" + std::to_string(count) + " times)" : found;
}

TEST(ResponseHeadersTest, ConfiguredHeadersOnEveryResponseAndReplacedByAReload) {
  ResponseHeaders headers;
  HttpResponse none;
  headers.AddTo(none);
  EXPECT_TRUE(none.headers.empty());

  headers.Replace({{"X-Frame-Options", "deny"}, {"X-XSS-Protection", ""}});
  HttpResponse page{401, "text/plain", "unauthorized\n", {{"WWW-Authenticate", "Basic"}}};
  headers.AddTo(page);
  EXPECT_EQ(Value(page, "X-Frame-Options"), "deny");
  EXPECT_EQ(Value(page, "WWW-Authenticate"), "Basic");
  for (const auto& [n, v] : page.headers) EXPECT_NE(n, "X-XSS-Protection");  // blank: unset
  headers.AddTo(page);
  EXPECT_EQ(Value(page, "X-Frame-Options"), "deny");  // never twice

  headers.Replace({{"X-Content-Type-Options", "nosniff"}});
  HttpResponse next;
  headers.AddTo(next);
  EXPECT_EQ(Value(next, "X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(Value(next, "X-Frame-Options"), "");
  headers.Replace({});
  HttpResponse last;
  headers.AddTo(last);
  EXPECT_TRUE(last.headers.empty());
}

}  // namespace
}  // namespace ovn_raft
