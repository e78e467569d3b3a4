#include "config.h"

#include <cctype>
#include <map>
#include <set>
#include <sstream>

#include "duration.h"
#include "numbers.h"

namespace ovn_raft {
namespace {

struct FlagSpec {
  const char* name;
  const char* help;
};

// The one list of flags: --help, the environment variable names and validation all use it.
const FlagSpec kFlags[] = {
    {"web.listen-address", "Address to listen on, HOST:PORT or :PORT (default :10476)."},
    {"web.telemetry-path", "Path under which to expose metrics (default /metrics)."},
    {"web.config.file", "File with basic_auth_users (bcrypt hashes), as in exporter-toolkit."},
    {"web.max-connections",
     "Connections served at once, one worker thread each; more wait (default 256)."},
    {"web.request-timeout",
     "Deadline to receive a request, and for an idle keep-alive connection (default 2s)."},
    {"web.allowed-sources",
     "Comma-separated IPv4 CIDRs allowed to connect, e.g. the scrapers' networks; others are "
     "refused before they take a worker (default: everyone)."},
    {"database",
     "NAME=CTL[,SOCK]: a clustered database, its unixctl socket and its database socket. "
     "Repeatable; given once, it replaces the default OVN_Northbound and OVN_Southbound."},
    {"timeout", "Deadline for reading one database, e.g. 2s, 500ms (default 2s)."},
    {"min-interval", "Reuse a reading younger than this; 0 reads on every scrape (default 1s)."},
    {"max-reply-size", "Largest reply accepted from ovsdb-server, in bytes (default 8388608)."},
    {"max-members",
     "Largest membership a status may list; more is refused as view_too_large. Bounds the "
     "series of a scrape (default 256)."},
    {"expected-members",
     "Members each cluster should have, e.g. the ovn-central replicas; exported as "
     "ovn_raft_expected_members for the too-many/too-few alerts (default: unset)."},
    {"expected-hosts",
     "Hosts the members should run on, comma- or space-separated IPs or DNS names (Kube-OVN's "
     "NODE_IPS); exported as ovn_raft_expected_host_info, and the expected size when "
     "--expected-members is unset (default: unset)."},
    {"log.level", "debug, info, warn or error (default info)."},
};

std::string EnvName(const std::string& flag) {
  std::string out = "OVN_RAFT_EXPORTER_";
  for (char c : flag) out += (c == '.' || c == '-') ? '_' : static_cast<char>(std::toupper(c));
  return out;
}

std::optional<LogLevel> ParseLogLevel(const std::string& v) {
  if (v == "debug") return LogLevel::kDebug;
  if (v == "info") return LogLevel::kInfo;
  if (v == "warn") return LogLevel::kWarn;
  if (v == "error") return LogLevel::kError;
  return std::nullopt;
}

// Returns an error message, or "" when `value` was applied.
std::string Apply(Config& c, const std::string& flag, const std::string& value) {
  if (flag == "web.listen-address") {
    const auto colon = value.rfind(':');
    const auto port =
        colon == std::string::npos ? std::nullopt : ParseUint(value.substr(colon + 1));
    if (!port || *port > 65535) return "expected HOST:PORT or :PORT, got \"" + value + "\"";
    c.listen_address = value;
  } else if (flag == "web.telemetry-path") {
    if (value.empty() || value[0] != '/' || value == "/") return "must start with / and not be /";
    c.telemetry_path = value;
  } else if (flag == "web.config.file") {
    c.web_config_file = value;
  } else if (flag == "web.max-connections") {
    const auto n = ParseUint(value);
    if (!n || *n < 4 || *n > 4096) return "expected a number from 4 to 4096, got \"" + value + "\"";
    c.web_max_connections = static_cast<int>(*n);
  } else if (flag == "web.request-timeout") {
    const auto d = ParseDuration(value);
    if (!d || d->count() < 100 || d->count() > 600000) {
      return "expected a duration from 100ms to 10m, got \"" + value + "\"";
    }
    c.web_request_timeout = *d;
  } else if (flag == "web.allowed-sources") {
    auto cidrs = ParseCidrList(value);
    if (!cidrs) return "expected IPv4 CIDRs separated by commas, got \"" + value + "\"";
    c.web_allowed_sources = std::move(*cidrs);
  } else if (flag == "database") {
    auto target = ParseDatabaseFlag(value);
    if (!target) return "expected NAME=CTL[,SOCK], got \"" + value + "\"";
    c.databases.push_back(std::move(*target));
  } else if (flag == "timeout" || flag == "min-interval") {
    const auto d = ParseDuration(value);
    if (!d) return "expected a duration like 2s or 500ms, got \"" + value + "\"";
    if (flag == "timeout") {
      if (d->count() == 0) return "must be more than 0";
      c.timeout = *d;
    } else {
      c.min_interval = *d;
    }
  } else if (flag == "max-reply-size") {
    const auto n = ParseUint(value);
    if (!n || *n < 1024) return "expected a number of bytes >= 1024, got \"" + value + "\"";
    c.max_reply_bytes = *n;
  } else if (flag == "max-members") {
    const auto n = ParseUint(value);
    if (!n || *n < 3 || *n > 100000)
      return "expected a number from 3 to 100000, got \"" + value + "\"";
    c.max_members = *n;
  } else if (flag == "expected-members") {
    const auto n = ParseUint(value);
    if (!n || *n > 99) return "expected a number of members from 0 to 99, got \"" + value + "\"";
    c.expected_members = static_cast<int>(*n);
  } else if (flag == "expected-hosts") {
    auto hosts = ParseHostList(value);
    if (!hosts)
      return "expected IPs or DNS names separated by commas or spaces, got \"" + value + "\"";
    if (hosts->size() > 99) return "expected at most 99 hosts";
    c.expected_hosts = std::move(*hosts);
  } else if (flag == "log.level") {
    const auto level = ParseLogLevel(value);
    if (!level) return "expected debug, info, warn or error, got \"" + value + "\"";
    c.log_level = *level;
  }
  return "";
}

}  // namespace

std::optional<std::vector<std::string>> ParseCidrList(const std::string& value) {
  std::vector<std::string> out;
  std::stringstream in(value);
  for (std::string item; std::getline(in, item, ',');) {
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back()))) item.pop_back();
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front())))
      item.erase(0, 1);
    if (item.empty()) continue;
    const auto slash = item.find('/');
    const std::string ip = item.substr(0, slash);
    int octets = 0;
    std::stringstream parts(ip);
    for (std::string octet; std::getline(parts, octet, '.');) {
      const auto n = ParseUint(octet);
      if (!n || *n > 255 || octet.size() > 3) return std::nullopt;
      ++octets;
    }
    if (octets != 4 || ip.back() == '.') return std::nullopt;
    if (slash != std::string::npos) {
      const auto bits = ParseUint(item.substr(slash + 1));
      if (!bits || *bits > 32) return std::nullopt;
    } else {
      item += "/32";
    }
    out.push_back(item);
  }
  return out;
}

std::optional<std::vector<std::string>> ParseHostList(const std::string& value) {
  std::set<std::string> hosts;
  std::string host;
  auto take = [&]() -> bool {
    if (host.empty()) return true;
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
      host = host.substr(1, host.size() - 2);
    }
    for (char& ch : host) {
      ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      // IPv4, IPv6 (with a zone after %), DNS names.
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != ':' && ch != '-' &&
          ch != '%' && ch != '_') {
        return false;
      }
    }
    hosts.insert(host);
    host.clear();
    return true;
  };
  for (char ch : value) {
    if (ch == ',' || std::isspace(static_cast<unsigned char>(ch))) {
      if (!take()) return std::nullopt;
    } else {
      host += ch;
    }
  }
  if (!take()) return std::nullopt;
  return std::vector<std::string>(hosts.begin(), hosts.end());
}

std::vector<DatabaseTarget> DefaultDatabases() {
  return {
      {"OVN_Northbound", "/var/run/ovn/ovnnb_db.ctl", "/var/run/ovn/ovnnb_db.sock"},
      {"OVN_Southbound", "/var/run/ovn/ovnsb_db.ctl", "/var/run/ovn/ovnsb_db.sock"},
  };
}

std::optional<DatabaseTarget> ParseDatabaseFlag(const std::string& value) {
  const auto eq = value.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == value.size()) return std::nullopt;
  DatabaseTarget t;
  t.name = value.substr(0, eq);
  const std::string paths = value.substr(eq + 1);
  const auto comma = paths.find(',');
  t.ctl_path = paths.substr(0, comma);
  if (comma != std::string::npos) t.sock_path = paths.substr(comma + 1);
  if (t.ctl_path.empty() || (comma != std::string::npos && t.sock_path.empty())) {
    return std::nullopt;
  }
  return t;
}

std::string ConfigUsage() {
  std::ostringstream out;
  out << "usage: ovn-raft-exporter [FLAGS]\n"
         "       ovn-raft-exporter parse-status [FILE|-]\n"
         "       ovn-raft-exporter healthcheck [URL]\n\n"
         "Serves the Raft facts of the local ovsdb-server's clustered databases to Prometheus.\n\n"
         "Flags (each also read from the environment variable shown):\n";
  for (const auto& f : kFlags) {
    out << "  --" << f.name << "=VALUE  [" << EnvName(f.name) << "]\n      " << f.help << "\n";
  }
  out << "  --help, --version\n";
  return out.str();
}

ConfigResult ParseConfig(const std::vector<std::string>& args, const EnvLookup& env) {
  ConfigResult result;
  std::set<std::string> known;
  for (const auto& f : kFlags) known.insert(f.name);

  // Gather flags first so that the environment only fills what the command line left unset.
  std::vector<std::pair<std::string, std::string>> given;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      result.help = true;
      return result;
    }
    if (arg == "--version") {
      result.version = true;
      return result;
    }
    if (arg.rfind("--", 0) != 0) {
      result.error = "unexpected argument \"" + arg + "\"";
      return result;
    }
    std::string name = arg.substr(2), value;
    const auto eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else if (known.count(name) && i + 1 < args.size()) {
      value = args[++i];
    } else if (known.count(name)) {
      result.error = "flag --" + name + " needs a value";
      return result;
    }
    if (!known.count(name)) {
      result.error = "unknown flag --" + name;
      return result;
    }
    given.emplace_back(name, value);
  }

  Config config;
  std::set<std::string> set_on_command_line;
  for (const auto& [name, value] : given) set_on_command_line.insert(name);
  for (const auto& f : kFlags) {
    if (set_on_command_line.count(f.name)) continue;
    const auto value = env(EnvName(f.name));
    if (!value || value->empty()) continue;
    if (std::string(f.name) == "database") {
      std::istringstream entries(*value);
      for (std::string entry; std::getline(entries, entry, ';');) {
        if (entry.empty()) continue;
        if (auto e = Apply(config, f.name, entry); !e.empty()) {
          result.error = EnvName(f.name) + ": " + e;
          return result;
        }
      }
      continue;
    }
    if (auto e = Apply(config, f.name, *value); !e.empty()) {
      result.error = EnvName(f.name) + ": " + e;
      return result;
    }
  }
  for (const auto& [name, value] : given) {
    if (auto e = Apply(config, name, value); !e.empty()) {
      result.error = "--" + name + ": " + e;
      return result;
    }
  }
  if (config.databases.empty()) config.databases = DefaultDatabases();
  std::set<std::string> names;
  for (const auto& d : config.databases) {
    if (!names.insert(d.name).second) {
      result.error = "--database: " + d.name + " given twice";
      return result;
    }
  }
  result.config = std::move(config);
  return result;
}

}  // namespace ovn_raft
