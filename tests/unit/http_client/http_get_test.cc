// What the HTTP client refuses before any transfer: URLs of other protocols.

#include "http_client/http_get.h"

#include <gtest/gtest.h>

#include <string>

namespace ovn_raft {
namespace {

TEST(HttpGetTest, OtherProtocolsAreRefusedWithTheirReason) {
  for (const std::string url : {"file:///etc/", "file:///etc/hostname", "ftp://127.0.0.1:1/x",
                                "dict://127.0.0.1:1/x", "gopher://127.0.0.1:1/"}) {
    HttpGetOptions options;
    options.timeout_ms = 2000;
    const HttpGetResult r = HttpGet(url, options);
    EXPECT_EQ(r.status, 0) << url;
    EXPECT_TRUE(r.body.empty()) << url;
    EXPECT_NE(r.error.find("rotocol"), std::string::npos) << url << ": " << r.error;
  }
}

}  // namespace
}  // namespace ovn_raft
