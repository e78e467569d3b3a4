#pragma once

// The exporter-toolkit web configuration file, the part this exporter honours (docs/web-config.md
// compares it field by field with exporter-toolkit's):
//
//   tls_server_config:
//     cert_file: /etc/tls/tls.crt      # relative paths are relative to this file
//     key_file: /etc/tls/tls.key
//     client_auth_type: RequireAndVerifyClientCert
//     client_ca_file: /etc/tls/ca.crt
//     min_version: TLS12
//     cipher_suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]
//     client_allowed_sans: [prometheus.monitoring.svc]
//   http_server_config:
//     headers:
//       X-Content-Type-Options: nosniff
//   basic_auth_users:
//     prometheus: $2y$10$...   # bcrypt hash (htpasswd -nBC 10 "" | tr -d ':\n')
//   rate_limit:
//     interval: 1s   # a Go duration; 0: no limit
//     burst: 10
//
// What it cannot honour is refused with the reason, never ignored.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "web/rate_limiter.h"
#include "web/setup_error.h"

namespace ovn_raft {

// bcrypt costs accepted: bcrypt's own minimum, and a maximum where one check still takes a
// fraction of a second (each step doubles it: at 16 two requests fill both check slots for
// seconds).
constexpr unsigned kMinBcryptCost = 4;
constexpr unsigned kMaxBcryptCost = 12;

// The largest web config file read (a real one is well under a KiB per user), and the most
// entries a cipher_suites or curve_preferences list may have (there are fewer suites and curves
// than that to name).
constexpr std::size_t kMaxWebConfigBytes = 1u << 20;
constexpr std::size_t kMaxTlsListItems = 64;

struct TlsServerConfig {
  std::string cert_file;
  std::string key_file;
  std::string client_ca_file;
  // NoClientCert, RequestClientCert, RequireAnyClientCert, VerifyClientCertIfGiven or
  // RequireAndVerifyClientCert, as in Go's crypto/tls.
  std::string client_auth_type = "NoClientCert";
  std::string min_version = "TLS12";
  std::string max_version = "TLS13";
  std::vector<std::string> cipher_suites;      // Go names; empty: OpenSSL's defaults
  std::vector<std::string> curve_preferences;  // Go names; empty: OpenSSL's defaults
  bool prefer_server_cipher_suites = true;
  // A verified client certificate must carry one of these as a DNS, IP, e-mail or URI SAN,
  // matched exactly as exporter-toolkit does; empty: any verified certificate.
  std::vector<std::string> client_allowed_sans;
  bool operator==(const TlsServerConfig&) const = default;
};

struct WebConfig {
  std::map<std::string, std::string> basic_auth_users;  // user -> bcrypt hash
  std::optional<TlsServerConfig> tls;
  // http_server_config.headers: added to every response. Only the headers exporter-toolkit
  // lets users set (kConfigurableHeaders), with its allowed values where it names them.
  std::map<std::string, std::string> headers;
  RateLimit rate_limit;  // none unless given
};

// exporter-toolkit's configurable response headers and, for each, the only values accepted
// (none listed: any value). Names are matched exactly, as exporter-toolkit does.
struct ConfigurableHeader {
  const char* name;
  std::vector<std::string> values;
};
const std::vector<ConfigurableHeader>& ConfigurableHeaders();

// Pure: parses the file's text. Fails closed: a hash that is not a usable bcrypt hash, or a
// user listed twice, is an error, not a user nobody can log in as (or the last one kept).
Result<WebConfig, SetupError> ParseWebConfig(const std::string& text);
// The file at `path`, which must be a readable regular file of at most kMaxWebConfigBytes (see
// bounded_file.h). Relative TLS file paths become
// relative to its directory, as exporter-toolkit has them.
Result<WebConfig, SetupError> LoadWebConfig(const std::string& path);

}  // namespace ovn_raft
