#pragma once

// The exporter-toolkit web configuration file, the part this exporter supports:
//
//   basic_auth_users:
//     prometheus: $2y$10$...   # bcrypt hash (htpasswd -nBC 10 "" | tr -d ':\n')
//
// tls_server_config is refused with an explanation: the packaged civetweb cannot serve TLS;
// put kube-rbac-proxy (or another TLS proxy) in front instead.

#include <map>
#include <string>

#include "exporter/setup_error.h"
#include "ovsdb/result.h"

namespace ovn_raft {

// bcrypt costs accepted: bcrypt's own minimum, and a maximum where one check still takes
// seconds, not minutes (cost 31 would pin both check slots for hours).
constexpr unsigned kMinBcryptCost = 4;
constexpr unsigned kMaxBcryptCost = 16;

struct WebConfig {
  std::map<std::string, std::string> basic_auth_users;  // user -> bcrypt hash
};

// Pure: parses the file's text. Fails closed: a hash that is not a usable bcrypt hash, or a
// user listed twice, is an error, not a user nobody can log in as (or the last one kept).
Result<WebConfig, SetupError> ParseWebConfig(const std::string& text);
// The file at `path`, which must be a readable regular file.
Result<WebConfig, SetupError> LoadWebConfig(const std::string& path);

}  // namespace ovn_raft
