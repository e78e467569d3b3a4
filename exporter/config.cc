#include "exporter/config.h"

#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <variant>

#include "cli/duration.h"
#include "cli/host_list.h"
#include "exporter/listen_address.h"
#include "parsers/numbers.h"

namespace ovn_raft {
namespace {

const char kEnvPrefix[] = "OVN_RAFT_EXPORTER_";

// The one list of flags: --help, the environment variable names and validation all use it.
const std::vector<FlagSpec>& Flags() {
  static const std::vector<FlagSpec> flags = {
      {"web.listen-address",
       "Address to listen on: IP:PORT, [IP]:PORT (IPv6, or IPv4 for manifests that bracket "
       "$(POD_IP)), [::]:PORT (both families) or :PORT. Repeatable, e.g. a loopback and the pod "
       "address, or one of each family (default :10476).",
       {},
       true},
      {"web.telemetry-path", "Path under which to expose metrics (default /metrics)."},
      {"web.config.file", "File with basic_auth_users (bcrypt hashes), as in exporter-toolkit."},
      {"web.max-connections",
       "Connections served at once, one worker thread each; more wait. One address gets at "
       "most a quarter of them (default 256)."},
      {"web.request-timeout",
       "Deadline to receive a request; a connection carries one request (default 2s)."},
      {"web.allowed-sources",
       "Comma-separated IPv4 or IPv6 CIDRs allowed to connect, e.g. the scrapers' networks; others "
       "are "
       "refused before they take a worker (default: everyone)."},
      {"ovsdb.database",
       "NAME=CTL[,SOCK]: a clustered database, its unixctl socket and its database socket. "
       "Repeatable; given once, it replaces the default OVN_Northbound and OVN_Southbound.",
       {"database"},
       true},
      {"ovsdb.timeout",
       "Deadline for reading one database, e.g. 2s, 500ms (default 2s).",
       {"timeout"}},
      {"ovsdb.min-interval",
       "Reuse a reading younger than this; 0 reads on every scrape (default 1s).",
       {"min-interval"}},
      {"ovsdb.max-reply-size",
       "Largest reply accepted from ovsdb-server, in bytes (default 8388608).",
       {"max-reply-size"}},
      {"ovsdb.max-members",
       "Largest membership a status may list; more is refused as view_too_large. Bounds the "
       "series of a scrape (default 256).",
       {"max-members"}},
      {"cluster.expected-members",
       "Members each cluster should have, e.g. the ovn-central replicas; exported as "
       "ovn_raft_expected_members for the too-many/too-few alerts (default: unset).",
       {"expected-members"}},
      {"cluster.expected-hosts",
       "Hosts the members should run on, comma- or space-separated IPs or DNS names (Kube-OVN's "
       "NODE_IPS); exported as ovn_raft_expected_host_info, and the expected size when "
       "--cluster.expected-members is unset (default: unset).",
       {"expected-hosts"}},
      {"log.level", "debug, info, warn or error (default info)."},
      {"log.format", "logfmt or json (default logfmt)."},
  };
  return flags;
}

// The Kube-OVN / ovn-kubernetes defaults: NB and SB under /var/run/ovn.
std::vector<DatabaseTarget> DefaultDatabases() {
  return {
      {"OVN_Northbound", "/var/run/ovn/ovnnb_db.ctl", "/var/run/ovn/ovnnb_db.sock"},
      {"OVN_Southbound", "/var/run/ovn/ovnsb_db.ctl", "/var/run/ovn/ovnsb_db.sock"},
  };
}

// "NAME=CTL[,SOCK]"
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
    auto parsed = ParseListenAddress(value);
    if (const auto* error = std::get_if<std::string>(&parsed)) return *error;
    const ListenAddress& b = std::get<ListenAddress>(parsed);
    for (const auto& a : c.listen_addresses) {
      // [::] takes the port on both families; otherwise a wildcard its own family's.
      const bool dual = (a.ipv6 && a.host.empty()) || (b.ipv6 && b.host.empty());
      if (a.port == b.port && a.port != 0 &&
          (dual || (a.ipv6 == b.ipv6 && (a.host.empty() || b.host.empty() || a.host == b.host)))) {
        return "\"" + value + "\" overlaps \"" + a.spec + "\": both would take port " +
               std::to_string(a.port);
      }
    }
    c.listen_addresses.push_back(b);
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
    if (!cidrs) return "expected IPv4 or IPv6 CIDRs separated by commas, got \"" + value + "\"";
    c.web_allowed_sources = std::move(*cidrs);
  } else if (flag == "ovsdb.database") {
    auto target = ParseDatabaseFlag(value);
    if (!target) return "expected NAME=CTL[,SOCK], got \"" + value + "\"";
    c.databases.push_back(std::move(*target));
  } else if (flag == "ovsdb.timeout" || flag == "ovsdb.min-interval") {
    const auto d = ParseDuration(value);
    if (!d) return "expected a duration like 2s or 500ms, got \"" + value + "\"";
    if (flag == "ovsdb.timeout") {
      if (d->count() == 0) return "must be more than 0";
      c.timeout = *d;
    } else {
      c.min_interval = *d;
    }
  } else if (flag == "ovsdb.max-reply-size") {
    const auto n = ParseUint(value);
    if (!n || *n < 1024) return "expected a number of bytes >= 1024, got \"" + value + "\"";
    c.max_reply_bytes = *n;
  } else if (flag == "ovsdb.max-members") {
    const auto n = ParseUint(value);
    if (!n || *n < 3 || *n > 100000)
      return "expected a number from 3 to 100000, got \"" + value + "\"";
    c.max_members = *n;
  } else if (flag == "cluster.expected-members") {
    const auto n = ParseUint(value);
    if (!n || *n > 99) return "expected a number of members from 0 to 99, got \"" + value + "\"";
    c.expected_members = static_cast<int>(*n);
  } else if (flag == "cluster.expected-hosts") {
    auto hosts = ParseHostList(value);
    if (!hosts)
      return "expected IPs or DNS names separated by commas or spaces, got \"" + value + "\"";
    if (hosts->size() > 99) return "expected at most 99 hosts";
    c.expected_hosts = std::move(*hosts);
  } else if (flag == "log.level") {
    const auto level = ParseLogLevel(value);
    if (!level) return "expected debug, info, warn or error, got \"" + value + "\"";
    c.log_level = *level;
  } else if (flag == "log.format") {
    if (value != "logfmt" && value != "json") {
      return "expected logfmt or json, got \"" + value + "\"";
    }
    c.log_format = value == "json" ? LogFormat::kJson : LogFormat::kLogfmt;
  }
  return "";
}

}  // namespace

std::string ConfigUsage() {
  std::ostringstream out;
  out << "usage: ovn-raft-exporter [FLAGS]\n"
         "       ovn-raft-exporter parse-status [FILE|-]\n"
         "       ovn-raft-exporter healthcheck [URL]\n\n"
         "Serves the Raft facts of the local ovsdb-server's clustered databases to Prometheus.\n\n"
         "Flags (each also read from the environment variable shown):\n";
  out << FlagsUsage(Flags(), kEnvPrefix);
  return out.str();
}

ConfigResult ParseConfig(const std::vector<std::string>& args, const EnvLookup& env) {
  ConfigResult result;
  ParsedFlags flags = ParseFlags(Flags(), args, env, kEnvPrefix, false);
  result.help = flags.help;
  result.version = flags.version;
  result.warnings = std::move(flags.warnings);
  if (flags.help || flags.version) return result;
  if (!flags.error.empty()) {
    result.error = flags.error;
    return result;
  }
  Config config;
  for (const auto& f : flags.values) {
    if (auto e = Apply(config, f.name, f.value); !e.empty()) {
      result.error = f.where + ": " + e;
      return result;
    }
  }
  if (config.databases.empty()) config.databases = DefaultDatabases();
  if (config.listen_addresses.empty()) {
    config.listen_addresses.push_back(
        std::get<ListenAddress>(ParseListenAddress(kDefaultListenAddress)));
  }
  std::set<std::string> names;
  for (const auto& d : config.databases) {
    if (!names.insert(d.name).second) {
      result.error = "--ovsdb.database: " + d.name + " given twice";
      return result;
    }
  }
  result.config = std::move(config);
  return result;
}

}  // namespace ovn_raft
