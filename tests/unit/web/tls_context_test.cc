// TlsContext against real files from the openssl command line: a server that would fail every
// handshake does not start. (Builds without TLS say so instead: tests/CMakeLists.txt.)
#include "web/tls_context.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "support/temp_dir.h"

namespace ovn_raft {
namespace {

class TlsContextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!TlsContext::Available()) GTEST_SKIP() << "built with the system's civetweb: no TLS";
    temp_ = std::make_unique<testing::TempDir>("ovn-raft-tlsctx");
    dir_ = temp_->path();
    for (const char* name : {"a", "b"}) {
      ASSERT_EQ(std::system(("cd " + dir_ +
                             " && openssl req -x509 -newkey ec -pkeyopt "
                             "ec_paramgen_curve:P-256 -nodes -keyout " +
                             name + ".key -out " + name + ".crt -days 1 -subj /CN=" + name +
                             " 2>/dev/null")
                                .c_str()),
                0);
    }
  }
  TlsServerConfig Config(const std::string& cert, const std::string& key) const {
    TlsServerConfig c;
    c.cert_file = dir_ + "/" + cert;
    c.key_file = dir_ + "/" + key;
    return c;
  }
  std::unique_ptr<testing::TempDir> temp_;  // none where the test is skipped
  std::string dir_;
};

TEST_F(TlsContextTest, LoadsAMatchingPairAndRefusesWhatWouldFailEveryHandshake) {
  EXPECT_TRUE(TlsContext::Create(Config("a.crt", "a.key")).ok());
  const auto mismatched = TlsContext::Create(Config("a.crt", "b.key"));
  ASSERT_FALSE(mismatched.ok());
  EXPECT_NE(mismatched.error().message.find("is not the key of cert_file"), std::string::npos);
  const auto missing = TlsContext::Create(Config("none.crt", "a.key"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("cannot read cert_file"), std::string::npos);
  const auto swapped = TlsContext::Create(Config("a.key", "a.crt"));
  ASSERT_FALSE(swapped.ok());
  EXPECT_NE(swapped.error().message.find("holds no PEM certificate"), std::string::npos);
  TlsServerConfig with_ca = Config("a.crt", "a.key");
  with_ca.client_ca_file = dir_ + "/a.key";
  with_ca.client_auth_type = "RequireAndVerifyClientCert";
  const auto bad_ca = TlsContext::Create(with_ca);
  ASSERT_FALSE(bad_ca.ok());
  EXPECT_NE(bad_ca.error().message.find("client_ca_file"), std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
