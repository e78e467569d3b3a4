// The web config's tls_server_config: what exporter-toolkit users write is honoured or refused
// with the reason, never ignored.
#include "web/web_config.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "web/tls_names.h"

namespace ovn_raft {
namespace {

std::string ErrorOf(const std::string& text) {
  const auto r = ParseWebConfig(text);
  return r.ok() ? "" : r.error().message;
}

TEST(TlsConfigTest, EveryFieldOfExporterToolkitThatCanBeHonoured) {
  const auto r = ParseWebConfig(
      "tls_server_config:\n"
      "  cert_file: /tls/tls.crt\n"
      "  key_file: \"/tls/tls.key\"\n"
      "  client_auth_type: RequireAndVerifyClientCert\n"
      "  client_ca_file: /tls/ca.crt\n"
      "  min_version: TLS13\n"
      "  max_version: TLS13\n"
      "  cipher_suites:\n"
      "    - TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256\n"
      "    - TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256\n"
      "  curve_preferences: [X25519, CurveP256]\n"
      "  prefer_server_cipher_suites: false\n"
      "basic_auth_users:\n"
      "  prom: $2b$05$4U7RpmTTCO91HYF2e1qjqeugfqW8Co.i5bp3Pci8Rn7Z95ROgloKG\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r.value().tls);
  const TlsServerConfig& t = *r.value().tls;
  EXPECT_EQ(t.cert_file, "/tls/tls.crt");
  EXPECT_EQ(t.key_file, "/tls/tls.key");
  EXPECT_EQ(t.client_auth_type, "RequireAndVerifyClientCert");
  EXPECT_EQ(t.client_ca_file, "/tls/ca.crt");
  EXPECT_EQ(t.min_version, "TLS13");
  EXPECT_EQ(t.cipher_suites,
            (std::vector<std::string>{"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
                                      "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"}));
  EXPECT_EQ(t.curve_preferences, (std::vector<std::string>{"X25519", "CurveP256"}));
  EXPECT_FALSE(t.prefer_server_cipher_suites);
  EXPECT_EQ(r.value().basic_auth_users.size(), 1u);
  // Defaults as exporter-toolkit's: TLS 1.2 and up, no client certificate.
  const auto d = ParseWebConfig("tls_server_config:\n  cert_file: c\n  key_file: k\n");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d.value().tls->min_version, "TLS12");
  EXPECT_EQ(d.value().tls->client_auth_type, "NoClientCert");
  EXPECT_EQ(*OpenSslCipher("TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"), "ECDHE-RSA-AES256-GCM-SHA384");
  EXPECT_EQ(*OpenSslGroup("CurveP384"), "P-384");
  EXPECT_EQ(*TlsVersionNumber("TLS12"), 0x0303);
}

TEST(TlsConfigTest, WhatCannotBeHonouredIsRefusedWithTheReason) {
  const std::string base = "tls_server_config:\n  cert_file: c\n  key_file: k\n";
  EXPECT_NE(ErrorOf("tls_server_config:\n  cert_file: c\n").find("needs cert_file and key_file"),
            std::string::npos);
  EXPECT_NE(ErrorOf(base + "  client_auth_type: RequireAndVerifyClientCert\n")
                .find("needs client_ca_file"),
            std::string::npos);
  EXPECT_NE(ErrorOf(base + "  client_ca_file: ca\n").find("does not verify"), std::string::npos);
  EXPECT_NE(ErrorOf(base + "  client_auth_type: Sometimes\n").find("is not one of"),
            std::string::npos);
  EXPECT_NE(ErrorOf(base + "  min_version: TLS10\n").find("TLS12 or TLS13"), std::string::npos);
  EXPECT_NE(ErrorOf(base + "  min_version: TLS13\n  max_version: TLS12\n").find("above"),
            std::string::npos);
  EXPECT_NE(ErrorOf(base + "  cipher_suites: [TLS_AES_128_GCM_SHA256]\n")
                .find("not one this exporter can honour"),
            std::string::npos);
  EXPECT_NE(ErrorOf(base + "  cipher_suites:\n    - TLS_RSA_WITH_RC4_128_SHA\n")
                .find("not one this exporter can honour"),
            std::string::npos);
  EXPECT_NE(ErrorOf(base + "  curve_preferences: [CurveP224]\n").find("is not X25519"),
            std::string::npos);
  EXPECT_NE(ErrorOf(base + "  cert: PEM\n").find("give cert_file"), std::string::npos);
  EXPECT_NE(ErrorOf(base + "  client_allowed_sans: [a]\n").find("not supported"),
            std::string::npos);
  EXPECT_NE(ErrorOf("http_server_config:\n  http2: false\n").find("not supported"),
            std::string::npos);
  EXPECT_NE(ErrorOf(base + "tls_server_config:\n").find("given twice"), std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
