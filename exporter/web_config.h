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

struct WebConfig {
  std::map<std::string, std::string> basic_auth_users;  // user -> bcrypt hash
};

// Pure: parses the file's text.
Result<WebConfig, SetupError> ParseWebConfig(const std::string& text);
Result<WebConfig, SetupError> LoadWebConfig(const std::string& path);

}  // namespace ovn_raft
