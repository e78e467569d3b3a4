#include "exporter/web_config.h"

#include <fstream>
#include <sstream>

#include "parsers/numbers.h"

namespace ovn_raft {
namespace {

std::string Unquote(std::string_view v) {
  v = Trim(v);
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
    v = v.substr(1, v.size() - 2);
  }
  return std::string(v);
}

SetupError Bad(int line, const std::string& what) {
  return SetupError{"web config line " + std::to_string(line) + ": " + what};
}

}  // namespace

Result<WebConfig, SetupError> ParseWebConfig(const std::string& text) {
  WebConfig config;
  std::istringstream in(text);
  std::string section;
  int number = 0;
  for (std::string raw; std::getline(in, raw);) {
    ++number;
    std::string_view line = raw;
    if (const auto hash = line.find(" #"); hash != std::string_view::npos)
      line = line.substr(0, hash);
    if (Trim(line).empty() || Trim(line).front() == '#') continue;
    const bool indented = line.front() == ' ' || line.front() == '\t';
    const std::string_view body = Trim(line);
    const auto colon = body.find(':');
    if (colon == std::string_view::npos) return Bad(number, "expected KEY: VALUE");
    const std::string key = Unquote(body.substr(0, colon));
    const std::string value = Unquote(body.substr(colon + 1));
    if (!indented) {
      section = key;
      if (key == "tls_server_config") {
        return Bad(number,
                   "TLS is not supported by this exporter's HTTP server; terminate TLS in a "
                   "sidecar such as kube-rbac-proxy (see README, Deployment)");
      }
      if (key != "basic_auth_users" && key != "http_server_config") {
        return Bad(number, "unknown setting \"" + key + "\"");
      }
      if (!value.empty() && value != "{}") return Bad(number, key + " must be a mapping");
      continue;
    }
    if (section != "basic_auth_users") continue;  // http_server_config: nothing applies here
    if (key.empty() || value.empty()) return Bad(number, "expected USER: BCRYPT_HASH");
    if (value.rfind("$2", 0) != 0)
      return Bad(number, "password of " + key + " is not a bcrypt hash");
    config.basic_auth_users[key] = value;
  }
  return config;
}

Result<WebConfig, SetupError> LoadWebConfig(const std::string& path) {
  std::ifstream in(path);
  if (!in) return SetupError{"cannot read web config " + path};
  std::stringstream s;
  s << in.rdbuf();
  return ParseWebConfig(s.str());
}

}  // namespace ovn_raft
