#include "exporter/web_config.h"

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstring>
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

// "" when `hash` is a bcrypt hash this exporter will check, else why not: $2a$, $2b$ or $2y$,
// a two-digit cost, and 53 characters of bcrypt's base64 (22 of salt, 31 of hash). A hash that
// is not one would refuse every password; one with a huge cost would take each check slot
// for minutes to hours.
std::string BcryptProblem(const std::string& hash) {
  if (hash.size() != 60 || hash[0] != '$' || hash[1] != '2' ||
      (hash[2] != 'a' && hash[2] != 'b' && hash[2] != 'y') || hash[3] != '$' || hash[6] != '$') {
    return "is not a bcrypt hash ($2a$, $2b$ or $2y$, cost, 53 characters; htpasswd -nBC 10)";
  }
  for (std::size_t i = 7; i < 60; ++i) {
    const char c = hash[i];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '/') {
      return "is not a bcrypt hash: '" + std::string(1, c) + "' is not bcrypt base64";
    }
  }
  const auto cost = ParseUint(hash.substr(4, 2));
  if (!cost || *cost < kMinBcryptCost || *cost > kMaxBcryptCost) {
    return "has bcrypt cost " + hash.substr(4, 2) + ", outside " + std::to_string(kMinBcryptCost) +
           " to " + std::to_string(kMaxBcryptCost) +
           " (each step doubles the time of a check: cost 16 takes seconds)";
  }
  return "";
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
    if (const std::string problem = BcryptProblem(value); !problem.empty()) {
      return Bad(number, "the password hash of " + key + " " + problem);
    }
    if (!config.basic_auth_users.emplace(key, value).second) {
      return Bad(number, "user " + key + " is listed twice");
    }
  }
  return config;
}

Result<WebConfig, SetupError> LoadWebConfig(const std::string& path) {
  // A directory opens as a stream that reads nothing, an empty config: no users, no
  // authentication. A Kubernetes Secret mounted without subPath is exactly that.
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    return SetupError{"cannot read web config " + path + ": " + std::strerror(errno)};
  }
  if (!S_ISREG(st.st_mode)) {
    return SetupError{"web config " + path + " is " +
                      (S_ISDIR(st.st_mode) ? "a directory" : "not a regular file") +
                      ", not a file (a Secret mounted without subPath? name the file in it)"};
  }
  std::ifstream in(path);
  std::stringstream s;
  if (!in || !(s << in.rdbuf()) || in.bad()) {
    return SetupError{"cannot read web config " + path};
  }
  return ParseWebConfig(s.str());
}

}  // namespace ovn_raft
