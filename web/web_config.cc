#include "web/web_config.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "base/strings.h"
#include "web/bounded_file.h"
#include "web/tls_names.h"

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
// is not one would refuse every password; one with a high cost would take each check slot
// for seconds to hours.
std::string BcryptProblem(const std::string& user, const std::string& hash) {
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
           " (each step doubles the time of a check: above 12 a few requests hold every check "
           "slot for seconds); hash the password again with: htpasswd -nBC " +
           std::to_string(cost && *cost > kMaxBcryptCost ? kMaxBcryptCost : 10) + " " + user;
  }
  return "";
}

// One setting of rate_limit; "" when applied, else why not.
std::string ApplyRateLimit(RateLimit& limit, const std::string& key, const std::string& value) {
  if (key == "interval") {
    const auto d = ParseGoDuration(value);
    if (!d) {
      return "rate_limit.interval \"" + value +
             "\" is not a duration such as 1s or 250ms (0 turns the limit off)";
    }
    limit.interval = *d;
  } else if (key == "burst") {
    const auto n = ParseUint(value);
    if (!n || *n > 1000000) return "rate_limit.burst must be a number from 0 to 1000000";
    limit.burst = static_cast<int>(*n);
  } else {
    return "rate_limit." + key + " is not one of interval, burst";
  }
  return "";
}

bool IsListKey(const std::string& key) {
  return key == "cipher_suites" || key == "curve_preferences" || key == "client_allowed_sans";
}

std::vector<std::string>& ListOf(TlsServerConfig& tls, const std::string& key) {
  if (key == "cipher_suites") return tls.cipher_suites;
  if (key == "curve_preferences") return tls.curve_preferences;
  return tls.client_allowed_sans;
}

// A control character (CR, LF, NUL...) in a value that ends up in a header or a comparison.
bool HasControl(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\t') || u == 0x7f;
  });
}

// "" when `name: value` may be in http_server_config.headers, else why not.
std::string HeaderProblem(const std::map<std::string, std::string>& headers,
                          const std::string& name, const std::string& value) {
  const auto& known = ConfigurableHeaders();
  const auto it = std::find_if(known.begin(), known.end(),
                               [&](const ConfigurableHeader& h) { return name == h.name; });
  if (it == known.end()) {
    std::string names;
    for (const auto& h : known) names += (names.empty() ? "" : ", ") + std::string(h.name);
    return "HTTP header \"" + name + "\" can not be configured (only " + names + ")";
  }
  if (headers.count(name) != 0) return "HTTP header " + name + " is given twice";
  if (HasControl(value)) return "HTTP header " + name + " has a control character in its value";
  if (!it->values.empty() && !value.empty() &&
      std::find(it->values.begin(), it->values.end(), value) == it->values.end()) {
    std::string values;
    for (const auto& v : it->values) values += (values.empty() ? "" : ", ") + v;
    return "invalid value for " + name + ": \"" + value + "\", expected one of " + values;
  }
  return "";
}

// "[a, b]" -> {a, b}; a scalar is an error.
std::optional<std::vector<std::string>> FlowList(const std::string& value) {
  if (value.size() < 2 || value.front() != '[' || value.back() != ']') return std::nullopt;
  std::vector<std::string> out;
  std::istringstream in(value.substr(1, value.size() - 2));
  for (std::string item; std::getline(in, item, ',');) {
    if (!Trim(item).empty()) out.push_back(Unquote(item));
  }
  return out;
}

// One setting of tls_server_config; "" when applied, else why not.
std::string ApplyTls(TlsServerConfig& tls, const std::string& key, const std::string& value) {
  if (key == "cert_file") {
    tls.cert_file = value;
  } else if (key == "key_file") {
    tls.key_file = value;
  } else if (key == "client_ca_file") {
    tls.client_ca_file = value;
  } else if (key == "client_auth_type") {
    static const std::vector<std::string> kTypes = {
        "NoClientCert", "RequestClientCert", "RequireAnyClientCert", "VerifyClientCertIfGiven",
        "RequireAndVerifyClientCert"};
    if (std::find(kTypes.begin(), kTypes.end(), value) == kTypes.end()) {
      return "client_auth_type \"" + value +
             "\" is not one of NoClientCert, RequestClientCert, RequireAnyClientCert, "
             "VerifyClientCertIfGiven, RequireAndVerifyClientCert";
    }
    tls.client_auth_type = value;
  } else if (key == "min_version" || key == "max_version") {
    if (!TlsVersionNumber(value)) {
      return key + " \"" + value +
             "\": TLS12 or TLS13 (OpenSSL 3 turns TLS10 and TLS11 off at its default security "
             "level)";
    }
    (key == "min_version" ? tls.min_version : tls.max_version) = value;
  } else if (IsListKey(key)) {
    // Every item is checked once, when it is read (ListItemProblem): not the whole list again.
  } else if (key == "prefer_server_cipher_suites") {
    if (value != "true" && value != "false") return key + " must be true or false";
    tls.prefer_server_cipher_suites = value == "true";
  } else if (key == "cert" || key == "key" || key == "client_ca") {
    return key + " (inline PEM) is not supported: give " + key + "_file";
  } else {
    return "tls_server_config." + key +
           " is not supported by this exporter (see docs/web-config.md)";
  }
  return "";
}

// "" when `name` may be in the list `key`, else why not. Each item is checked once, as it is
// read, and a list stops at kMaxTlsListItems: a reload costs time linear in the file, bounded.
std::string ListItemProblem(const std::string& key, const std::vector<std::string>& list,
                            const std::string& name) {
  if (list.size() >= kMaxTlsListItems) {
    return key + " lists more than " + std::to_string(kMaxTlsListItems) + " entries";
  }
  if (key == "cipher_suites" && !OpenSslCipher(name)) {
    return "cipher suite \"" + name +
           "\" is not one this exporter can honour (the ECDHE and RSA suites with AES-GCM, "
           "ChaCha20-Poly1305 or AES-CBC, by their Go names)";
  }
  if (key == "curve_preferences" && !OpenSslGroup(name)) {
    return "curve \"" + name + "\" is not X25519, CurveP256, CurveP384 or CurveP521";
  }
  if (key == "client_allowed_sans" && (name.empty() || HasControl(name))) {
    return "client_allowed_sans: an entry is empty or holds a control character";
  }
  return "";
}

// The checks that need the whole section.
std::string TlsProblem(const TlsServerConfig& tls) {
  if (tls.cert_file.empty() || tls.key_file.empty()) {
    return "tls_server_config needs cert_file and key_file";
  }
  const bool verifies = tls.client_auth_type == "VerifyClientCertIfGiven" ||
                        tls.client_auth_type == "RequireAndVerifyClientCert";
  if (verifies && tls.client_ca_file.empty()) {
    return "client_auth_type " + tls.client_auth_type + " needs client_ca_file";
  }
  if (!tls.client_ca_file.empty() && !verifies) {
    return "client_ca_file is given but client_auth_type " + tls.client_auth_type +
           " does not verify client certificates (use RequireAndVerifyClientCert)";
  }
  // A SAN proves who a client is only in a certificate that was verified, and only when one is
  // required: exporter-toolkit also checks unverified ones, a promise of nothing.
  if (!tls.client_allowed_sans.empty() && tls.client_auth_type != "RequireAndVerifyClientCert") {
    return "client_allowed_sans needs client_auth_type RequireAndVerifyClientCert (a SAN in a "
           "certificate nobody verified proves nothing)";
  }
  if (*TlsVersionNumber(tls.min_version) > *TlsVersionNumber(tls.max_version)) {
    return "min_version " + tls.min_version + " is above max_version " + tls.max_version;
  }
  return "";
}

}  // namespace

const std::vector<ConfigurableHeader>& ConfigurableHeaders() {
  static const std::vector<ConfigurableHeader> kHeaders = {
      {"Strict-Transport-Security", {}},
      {"X-Content-Type-Options", {"nosniff"}},
      {"X-Frame-Options", {"deny", "sameorigin"}},
      {"X-XSS-Protection", {}},
      {"Content-Security-Policy", {}},
  };
  return kHeaders;
}

Result<WebConfig, SetupError> ParseWebConfig(const std::string& text) {
  WebConfig config;
  std::istringstream in(text);
  std::string section;
  int number = 0;
  std::string list_key;                            // a block list being read ("- item" lines)
  std::size_t headers_indent = std::string::npos;  // of "headers:", while its entries are read
  for (std::string raw; std::getline(in, raw);) {
    ++number;
    std::string_view line = raw;
    if (const auto hash = line.find(" #"); hash != std::string_view::npos)
      line = line.substr(0, hash);
    if (Trim(line).empty() || Trim(line).front() == '#') continue;
    const bool indented = line.front() == ' ' || line.front() == '\t';
    const std::string_view body = Trim(line);
    if (indented && body.front() == '-' && !list_key.empty()) {
      auto& list = ListOf(*config.tls, list_key);
      std::string item = Unquote(body.substr(1));
      if (auto problem = ListItemProblem(list_key, list, item); !problem.empty()) {
        return Bad(number, problem);
      }
      list.push_back(std::move(item));
      continue;
    }
    list_key.clear();
    const auto colon = body.find(':');
    if (colon == std::string_view::npos) return Bad(number, "expected KEY: VALUE");
    const std::string key = Unquote(body.substr(0, colon));
    const std::string value = Unquote(body.substr(colon + 1));
    if (!indented) {
      section = key;
      headers_indent = std::string::npos;
      if (key == "tls_server_config") {
        if (config.tls) return Bad(number, "tls_server_config is given twice");
        config.tls.emplace();
      } else if (key != "basic_auth_users" && key != "http_server_config" && key != "rate_limit") {
        return Bad(number, "unknown setting \"" + key + "\"");
      }
      if (!value.empty() && value != "{}") return Bad(number, key + " must be a mapping");
      continue;
    }
    if (section == "tls_server_config") {
      if (IsListKey(key)) {
        if (value.empty()) {
          list_key = key;
          continue;
        }
        auto list = FlowList(value);
        if (!list) return Bad(number, key + " must be a list");
        // exporter-toolkit would refuse every client certificate.
        if (list->empty() && key == "client_allowed_sans") {
          return Bad(number, "client_allowed_sans lists no SAN: leave it out to allow any");
        }
        std::vector<std::string> checked;
        for (auto& item : *list) {
          if (auto problem = ListItemProblem(key, checked, item); !problem.empty()) {
            return Bad(number, problem);
          }
          checked.push_back(std::move(item));
        }
        ListOf(*config.tls, key) = std::move(checked);
      }
      if (auto problem = ApplyTls(*config.tls, key, value); !problem.empty()) {
        return Bad(number, problem);
      }
      continue;
    }
    if (section == "http_server_config") {
      const std::size_t indent = raw.find_first_not_of(" \t");
      if (headers_indent != std::string::npos && indent > headers_indent) {
        if (auto problem = HeaderProblem(config.headers, key, value); !problem.empty()) {
          return Bad(number, problem);
        }
        config.headers.emplace(key, value);  // a blank value stays unset, as exporter-toolkit says
        continue;
      }
      headers_indent = std::string::npos;
      if (key == "headers" && (value.empty() || value == "{}")) {
        if (value.empty()) headers_indent = indent;
        continue;
      }
      // http2 would be a promise this server cannot keep.
      return Bad(number, section + "." + key + " is not supported by this exporter" +
                             (key == "headers" ? " as a flow mapping: one header a line" : ""));
    }
    if (section == "rate_limit") {
      if (auto problem = ApplyRateLimit(config.rate_limit, key, value); !problem.empty()) {
        return Bad(number, problem);
      }
      continue;
    }
    if (section != "basic_auth_users") {
      return Bad(number, section + "." + key + " is not supported by this exporter");
    }
    if (key.empty() || value.empty()) return Bad(number, "expected USER: BCRYPT_HASH");
    if (const std::string problem = BcryptProblem(key, value); !problem.empty()) {
      return Bad(number, "the password hash of " + key + " " + problem);
    }
    if (!config.basic_auth_users.emplace(key, value).second) {
      return Bad(number, "user " + key + " is listed twice");
    }
  }
  if (config.tls) {
    if (const std::string problem = TlsProblem(*config.tls); !problem.empty()) {
      return SetupError{"web config: " + problem};
    }
  }
  // exporter-toolkit would then answer every request 429: surely not what was meant.
  if (config.rate_limit.interval.count() > 0 && config.rate_limit.burst == 0) {
    return SetupError{
        "web config: rate_limit.burst is 0 with an interval: every request would be refused "
        "(give burst: 1 or more, or interval: 0 for no limit)"};
  }
  return config;
}

Result<WebConfig, SetupError> LoadWebConfig(const std::string& path) {
  // A directory would read as an empty config: no users, no authentication (a Kubernetes Secret
  // mounted without subPath is exactly that); a FIFO would block the reload for ever.
  auto text = ReadBoundedFile(path, kMaxWebConfigBytes, "web config");
  if (!text) return SetupError{text.error()};
  auto config = ParseWebConfig(text.value());
  if (config && config.value().tls) {
    const auto slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
    auto& tls = *config.value().tls;
    for (std::string* file : {&tls.cert_file, &tls.key_file, &tls.client_ca_file}) {
      if (!file->empty() && file->front() != '/') *file = dir + (dir == "." ? "/" : "") + *file;
    }
  }
  return config;
}

}  // namespace ovn_raft
