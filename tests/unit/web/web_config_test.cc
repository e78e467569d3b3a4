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
  EXPECT_NE(ErrorOf("http_server_config:\n  http2: false\n").find("not supported"),
            std::string::npos);
  EXPECT_NE(ErrorOf(base + "tls_server_config:\n").find("given twice"), std::string::npos);
}

TEST(TlsConfigTest, ClientAllowedSansAsExporterToolkitHasThem) {
  const std::string verified =
      "tls_server_config:\n  cert_file: c\n  key_file: k\n"
      "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca\n";
  const auto flow =
      ParseWebConfig(verified + "  client_allowed_sans: [prom.example, '10.0.0.1']\n");
  ASSERT_TRUE(flow.ok()) << flow.error().message;
  EXPECT_EQ(flow.value().tls->client_allowed_sans,
            (std::vector<std::string>{"prom.example", "10.0.0.1"}));
  const auto block = ParseWebConfig(verified +
                                    "  client_allowed_sans:\n    - spiffe://cluster/prometheus\n"
                                    "    - \"ops@example.org\"\n  min_version: TLS13\n");
  ASSERT_TRUE(block.ok()) << block.error().message;
  EXPECT_EQ(block.value().tls->client_allowed_sans,
            (std::vector<std::string>{"spiffe://cluster/prometheus", "ops@example.org"}));
  EXPECT_EQ(block.value().tls->min_version, "TLS13");
  // Without a verified certificate a SAN proves nothing; an empty list would refuse everyone.
  for (const std::string type : {"RequestClientCert", "RequireAnyClientCert", "NoClientCert"}) {
    EXPECT_NE(ErrorOf("tls_server_config:\n  cert_file: c\n  key_file: k\n  client_auth_type: " +
                      type + "\n  client_allowed_sans: [a]\n")
                  .find("needs client_auth_type RequireAndVerifyClientCert"),
              std::string::npos)
        << type;
  }
  EXPECT_NE(ErrorOf("tls_server_config:\n  cert_file: c\n  key_file: k\n  client_auth_type: "
                    "VerifyClientCertIfGiven\n  client_ca_file: ca\n  client_allowed_sans: [a]\n")
                .find("needs client_auth_type RequireAndVerifyClientCert"),
            std::string::npos);
  EXPECT_NE(ErrorOf(verified + "  client_allowed_sans: []\n").find("lists no SAN"),
            std::string::npos);
  EXPECT_NE(ErrorOf(verified + "  client_allowed_sans: ['']\n").find("empty"), std::string::npos);
}

TEST(TlsConfigTest, IpSansAreSpelledAsGoSpellsThem) {
  const auto ip = [](std::initializer_list<int> bytes) {
    std::vector<unsigned char> b(bytes.begin(), bytes.end());
    return GoIpString(b.data(), b.size());
  };
  EXPECT_EQ(ip({127, 0, 0, 1}), "127.0.0.1");
  EXPECT_EQ(ip({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}), "::1");
  EXPECT_EQ(ip({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), "::");
  EXPECT_EQ(ip({0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}), "fd00::1");
  EXPECT_EQ(ip({0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}), "2001:db8:0:1::");
  // One zero group is not shortened; of two equal runs, the first is.
  EXPECT_EQ(ip({0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}),
            "2001:db8:0:1:1:1:1:1");
  EXPECT_EQ(ip({0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1}), "1::1:1:0:0:1");
  EXPECT_EQ(ip({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 7}), "10.0.0.7");
  EXPECT_EQ(ip({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 7}), "::a00:7");
  EXPECT_EQ(ip({1, 2, 3}), "?");
}

TEST(TlsConfigTest, ResponseHeadersAsExporterToolkitAllowsThem) {
  const auto r = ParseWebConfig(
      "http_server_config:\n"
      "  headers:\n"
      "    X-Frame-Options: deny\n"
      "    X-Content-Type-Options: nosniff\n"
      "    Content-Security-Policy: \"default-src 'none'; frame-ancestors 'none'\"\n"
      "    Strict-Transport-Security: max-age=31536000; includeSubDomains\n"
      "    X-XSS-Protection:\n"
      "basic_auth_users:\n"
      "  prom: $2b$05$4U7RpmTTCO91HYF2e1qjqeugfqW8Co.i5bp3Pci8Rn7Z95ROgloKG\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& h = r.value().headers;
  EXPECT_EQ(h.size(), 5u);
  EXPECT_EQ(h.at("X-Frame-Options"), "deny");
  EXPECT_EQ(h.at("Content-Security-Policy"), "default-src 'none'; frame-ancestors 'none'");
  EXPECT_EQ(h.at("Strict-Transport-Security"), "max-age=31536000; includeSubDomains");
  EXPECT_EQ(h.at("X-XSS-Protection"), "");  // blank: left unset
  EXPECT_EQ(r.value().basic_auth_users.size(), 1u);
  EXPECT_TRUE(ParseWebConfig("http_server_config:\n  headers: {}\n").ok());
  EXPECT_TRUE(ParseWebConfig("http_server_config:\n  headers:\n").value().headers.empty());

  const std::string head = "http_server_config:\n  headers:\n";
  // Only exporter-toolkit's five, by their exact names; the enumerated ones by their values.
  EXPECT_NE(ErrorOf(head + "    Set-Cookie: a=b\n").find("can not be configured"),
            std::string::npos);
  EXPECT_NE(ErrorOf(head + "    Content-Type: text/html\n").find("can not be configured"),
            std::string::npos);
  EXPECT_NE(ErrorOf(head + "    x-frame-options: deny\n").find("can not be configured"),
            std::string::npos);
  EXPECT_NE(ErrorOf(head + "    X-Frame-Options: allow-from x\n")
                .find("expected one of deny, "
                      "sameorigin"),
            std::string::npos);
  EXPECT_NE(ErrorOf(head + "    X-Content-Type-Options: sniff\n").find("expected one of nosniff"),
            std::string::npos);
  EXPECT_NE(ErrorOf(head + "    X-Frame-Options: deny\n    X-Frame-Options: sameorigin\n")
                .find("given twice"),
            std::string::npos);
  EXPECT_NE(ErrorOf(head + "    Content-Security-Policy: a\x01"
                           "b\n")
                .find("control character"),
            std::string::npos);
  EXPECT_NE(ErrorOf("http_server_config:\n  headers: {X-Frame-Options: deny}\n")
                .find("one header a line"),
            std::string::npos);
  // A header line below another key of http_server_config is not a header.
  EXPECT_NE(ErrorOf(head + "    X-Frame-Options: deny\n  http2: false\n").find("not supported"),
            std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
