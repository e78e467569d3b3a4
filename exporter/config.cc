#include "exporter/config.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <vector>

#include "base/build_version.h"
#include "base/strings.h"
#include "cli/duration.h"
#include "cli/expected_cluster_flags.h"
#include "cli/man_page.h"
#include "ovsdb/jsonrpc_client.h"
#include "reader/database_reader.h"
#include "reader/socket_discovery.h"
#include "web/cidr.h"

namespace ovn_raft {
namespace {

const char kEnvPrefix[] = "OVN_RAFT_EXPORTER_";

using Error = std::optional<std::string>;

std::string Quoted(const std::string& value) { return "\"" + value + "\""; }

Error AddListenAddress(Config& c, const std::string& value) {
  const auto parsed = ParseListenAddress(value);
  if (!parsed) return parsed.error();
  const ListenAddress& b = parsed.value();
  for (const auto& a : c.listen_addresses) {
    // [::] takes the port on both families; otherwise a wildcard its own family's.
    const bool dual = (a.ipv6 && a.host.empty()) || (b.ipv6 && b.host.empty());
    if (a.port == b.port && a.port != 0 &&
        (dual || (a.ipv6 == b.ipv6 && (a.host.empty() || b.host.empty() || a.host == b.host)))) {
      return Quoted(value) + " overlaps " + Quoted(a.spec) + ": both would take port " +
             std::to_string(a.port);
    }
  }
  c.listen_addresses.push_back(b);
  return std::nullopt;
}

// "NAME=CTL[,SOCK[,FILE]]"
Error AddDatabase(Config& c, const std::string& value) {
  const auto eq = value.find('=');
  const std::string paths = eq == std::string::npos ? "" : value.substr(eq + 1);
  std::vector<std::string> parts;
  for (std::size_t from = 0;;) {
    const auto comma = paths.find(',', from);
    parts.push_back(paths.substr(from, comma - from));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  DatabaseTarget t{value.substr(0, eq), parts[0], parts.size() > 1 ? parts[1] : "",
                   parts.size() > 2 ? parts[2] : ""};
  const bool empty_part =
      std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); });
  if (eq == std::string::npos || t.name.empty() || empty_part || parts.size() > 3) {
    return "expected NAME=CTL[,SOCK[,FILE]], got " + Quoted(value);
  }
  for (const auto& d : c.databases) {
    if (d.name == t.name) return t.name + " given twice";
  }
  c.databases.push_back(std::move(t));
  return std::nullopt;
}

// A whole number in [min, max] into `out`.
template <typename N>
Error SetNumber(N& out, const std::string& value, std::uint64_t min, std::uint64_t max,
                const char* what) {
  const auto n = ParseUint(value);
  if (!n || *n < min || *n > max) return std::string("expected ") + what + ", got " + Quoted(value);
  out = static_cast<N>(*n);
  return std::nullopt;
}

// The setter of a duration flag: into `field`, within [min, max] (`what` says so otherwise).
auto DurationInto(std::chrono::milliseconds Config::*field, std::chrono::milliseconds min,
                  std::chrono::milliseconds max, const char* what) {
  return [=](Config& c, const std::string& value) -> Error {
    const auto d = ParseDuration(value);
    if (!d) return "expected a duration like 2s or 500ms, got " + Quoted(value);
    if (*d < min || *d > max) return std::string(what) + ", got " + Quoted(value);
    c.*field = *d;
    return std::nullopt;
  };
}

Error SetLogLevel(Config& c, const std::string& v) {
  static const std::map<std::string, LogLevel> kLevels = {{"debug", LogLevel::kDebug},
                                                          {"info", LogLevel::kInfo},
                                                          {"warn", LogLevel::kWarn},
                                                          {"error", LogLevel::kError}};
  const auto level = kLevels.find(v);
  if (level == kLevels.end()) return "expected debug, info, warn or error, got " + Quoted(v);
  c.log_level = level->second;
  return std::nullopt;
}

// "a, b, c and d"
std::string Alternatives(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  }
  return out;
}

// What --help and the manual page say beside the flags: one table each, read by both.
const std::vector<ManEntry>& ExitStatuses() {
  static const std::vector<ManEntry> table = {
      {"0",
       "Stopped by SIGTERM or SIGINT after the requests in flight finished; --help and "
       "--version. healthcheck: the exporter answered."},
      {"1",
       "The HTTP server could not start: an address in use or not assigned to this host, "
       "or no usable socket passed by systemd with --web.systemd-socket. healthcheck: the "
       "exporter did not answer 200."},
      {"2",
       "Invalid flags, environment variables or web config file; the message names the "
       "one to fix. healthcheck: an unusable URL, or the exporter's flags could not be "
       "read."},
  };
  return table;
}

const std::vector<ManEntry>& Signals() {
  static const std::vector<ManEntry> table = {
      {"SIGHUP",
       "Re-reads the web config file (users, and the certificate and key), as "
       "systemctl reload does; a bad file keeps the last good one. Without "
       "--web.config.file it only logs that there is nothing to reload."},
      {"SIGTERM, SIGINT",
       "Stops: requests in flight finish and send their pages for at most "
       "--ovsdb.timeout and 2 seconds, new ones get 503, then it exits 0."},
  };
  return table;
}

const std::vector<ManEntry>& Environment() {
  static const std::vector<ManEntry> table = {
      {"OVN_RUNDIR",
       "Where the OVN databases' sockets (NB, SB and the interconnection databases) are looked "
       "for, alone, when set (as ovn-ctl uses it): see the search order (FILES in the manual)."},
      {"OVN_DBDIR",
       "Where their database files are looked for, alone, when set: see the search order (FILES in "
       "the manual)."},
      {"LISTEN_FDS, LISTEN_PID",
       "Set by systemd for --web.systemd-socket: how many sockets it "
       "passes from descriptor 3 on, and the process they are for. "
       "Removed from the environment once taken."},
      {"INVOCATION_ID, JOURNAL_STREAM, KUBERNETES_SERVICE_HOST",
       "Tell where the exporter runs (a systemd service, a container), so that a permission "
       "error names the setting to change there: the unit's User=, or the securityContext."},
  };
  return table;
}

// The search order of the sockets and files, from the lists the discovery uses.
std::vector<std::string> SearchOrder() {
  return {
      "Without --ovsdb.database for NB or SB, the unixctl and database sockets of NB, SB and "
      "the interconnection databases (ovnnb_db, ovnsb_db, ovn_ic_nb_db and ovn_ic_sb_db, each "
      ".ctl and .sock) are looked for once, at start: in $OVN_RUNDIR alone when set, else in "
      "the first of " +
          Alternatives(UsualRunDirs()) +
          " that holds any. None found and no --ovsdb.database: NB and SB are watched in the "
          "first place tried, and read once they start there.",
      "Their database files (ovnnb_db.db, ovnsb_db.db, ovn_ic_nb_db.db, ovn_ic_sb_db.db), for "
      "the file's size and its filesystem's free space: in $OVN_DBDIR alone when set, else in "
      "the first of " +
          Alternatives(UsualDbDirs()) + " that holds any."};
}

// The one list of flags: --help, the variables, the defaults, parsing and the README table.
const std::vector<Flag<Config>>& Table() {
  using std::chrono::milliseconds;
  static const std::vector<Flag<Config>> table = [] {
    std::vector<Flag<Config>> t = {
        {.spec = {.name = "web.listen-address",
                  .help = "Address to listen on: IP:PORT, [IP]:PORT (IPv6, or IPv4 for manifests "
                          "that bracket $(POD_IP)), [::]:PORT (both families) or :PORT. "
                          "Repeatable, e.g. a loopback and the pod address, or one of each family.",
                  .repeatable = true},
         .defaults = {kDefaultListenAddress},
         .set = AddListenAddress},
        {.spec = {.name = "web.systemd-socket",
                  .help = "Serve the listening sockets systemd passes (a .socket unit: "
                          "LISTEN_FDS, LISTEN_PID) instead of --web.listen-address, which is "
                          "then ignored.",
                  .boolean = true},
         .defaults = {"false"},
         .set = [](Config& c, const std::string& v) -> Error {
           c.systemd_socket = v == "true";
           return std::nullopt;
         }},
        {.spec = {.name = "web.telemetry-path", .help = "Path under which to expose metrics."},
         .defaults = {"/metrics"},
         .set = [](Config& c, const std::string& v) -> Error {
           if (v.empty() || v[0] != '/' || v == "/") return "must start with / and not be /";
           c.telemetry_path = v;
           return std::nullopt;
         }},
        {.spec = {.name = "web.config.file",
                  .help = "File with tls_server_config and basic_auth_users (bcrypt hashes), as "
                          "in exporter-toolkit.",
                  .default_text = "none"},
         .set = [](Config& c, const std::string& v) -> Error {
           c.web_config_file = v;
           return std::nullopt;
         }},
        {.spec = {.name = "web.max-connections",
                  .help = "Connections served at once, one worker thread each; more wait. One "
                          "address gets at most a quarter of them."},
         // Every worker is a thread, counted against a pod's PID limit: a sidecar's tens. One
         // address's share is a quarter of them, which a scraper behind a NAT shared with
         // busy clients outgrows: 256 there (docs/limits.md, docs/dev/abuse.md).
         .defaults = {"64"},
         .set =
             [](Config& c, const std::string& v) {
               return SetNumber(c.web_max_connections, v, 4, 4096, "a number from 4 to 4096");
             }},
        {.spec = {.name = "web.request-timeout",
                  .help = "Deadline to receive a request; a connection carries one request."},
         .defaults = {"2s"},
         .set = DurationInto(&Config::web_request_timeout, milliseconds(100), milliseconds(600000),
                             "expected a duration from 100ms to 10m")},
        {.spec = {.name = "web.allowed-sources",
                  .help = "Comma-separated IPv4 or IPv6 CIDRs allowed to connect, e.g. the "
                          "scrapers' networks; others are refused before they take a worker.",
                  .default_text = "everyone"},
         .set = [](Config& c, const std::string& v) -> Error {
           auto cidrs = ParseCidrList(v);
           if (!cidrs) return "expected IPv4 or IPv6 CIDRs separated by commas, got " + Quoted(v);
           // An empty template variable gives this: it must not mean everyone.
           if (cidrs->empty()) {
             return "names no network (got " + Quoted(v) +
                    "): give the scrapers' CIDRs, or leave the flag out to admit every source";
           }
           c.web_allowed_sources = std::move(*cidrs);
           return std::nullopt;
         }},
        {.spec = {.name = "ovsdb.database",
                  .help = "NAME=CTL[,SOCK[,FILE]]: a database (clustered, standalone or relay), "
                          "its unixctl socket, its database socket and its database file (for "
                          "the file's size and its filesystem's free space). Repeatable. NB and "
                          "SB not given are found at start, with the interconnection databases: "
                          "their ovnnb_db, ovnsb_db, ovn_ic_nb_db and ovn_ic_sb_db sockets in "
                          "$OVN_RUNDIR when set, else in the first of " +
                          Alternatives(UsualRunDirs()) +
                          " that has one; NB alone or SB alone is fine. One given and the "
                          "other not found: the log says so.",
                  .repeatable = true,
                  .default_text = "the OVN databases found at start"},
         .set = AddDatabase},
        {.spec = {.name = "ovsdb.timeout",
                  .help = "Deadline for reading one database, e.g. 2s, 500ms."},
         .defaults = {FormatDuration(kDefaultCallTimeout)},
         .set = DurationInto(&Config::timeout, milliseconds(1), milliseconds::max(),
                             "must be more than 0")},
        {.spec = {.name = "ovsdb.min-interval",
                  .help = "Reuse a reading younger than this; 0 reads on every scrape."},
         .defaults = {"1s"},
         .set = DurationInto(&Config::min_interval, milliseconds(0), milliseconds::max(), "")},
        {.spec = {.name = "ovsdb.server-facts-interval",
                  .help = "Ask the server's memory/show and storage status at most this often, "
                          "reusing them in between; 0 asks on every read."},
         .defaults = {"10s"},
         .set = DurationInto(&Config::facts_interval, milliseconds(0), milliseconds::max(), "")},
        {.spec = {.name = "ovsdb.max-reply-size",
                  .help = "Largest reply accepted from ovsdb-server, in bytes."},
         .defaults = {std::to_string(kDefaultMaxReplyBytes)},
         .set =
             [](Config& c, const std::string& v) {
               return SetNumber(c.max_reply_bytes, v, 1024, UINT64_MAX,
                                "a number of bytes >= 1024");
             }},
        {.spec = {.name = "ovsdb.max-members",
                  .help = "Largest membership a status may list; more is refused as "
                          "view_too_large. Bounds the series of a scrape."},
         .defaults = {std::to_string(kDefaultMaxMembers)},
         .set =
             [](Config& c, const std::string& v) {
               return SetNumber(c.max_members, v, 3, 100000, "a number from 3 to 100000");
             }},
    };
    for (auto& flag : ExpectedClusterFlags(&Config::expected)) t.push_back(std::move(flag));
    t.push_back({.spec = {.name = "log.level", .help = "debug, info, warn or error."},
                 .defaults = {"info"},
                 .set = SetLogLevel});
    t.push_back({.spec = {.name = "log.format", .help = "logfmt or json."},
                 .defaults = {"logfmt"},
                 .set = [](Config& c, const std::string& v) -> Error {
                   if (v != "logfmt" && v != "json")
                     return "expected logfmt or json, got " + Quoted(v);
                   c.log_format = v == "json" ? LogFormat::kJson : LogFormat::kLogfmt;
                   return std::nullopt;
                 }});
    return t;
  }();
  return table;
}

}  // namespace

std::vector<FlagSpec> ConfigFlags() { return Specs(Table()); }

std::string ConfigUsage() {
  std::ostringstream out;
  out << "usage: ovn-raft-exporter [FLAGS]\n"
         "       ovn-raft-exporter parse-status [FILE|-]\n"
         "       ovn-raft-exporter healthcheck [URL]\n\n"
         "Serves the Raft facts of the local ovsdb-server's clustered databases to Prometheus.\n\n"
         "Flags (each also read from the environment variable shown):\n";
  out << FlagsUsage(ConfigFlags(), kEnvPrefix);
  out << EntriesUsage("Other environment variables", Environment());
  out << EntriesUsage("Signals", Signals());
  out << EntriesUsage("Exit status", ExitStatuses());
  out << "\nSearch order:\n";
  for (const auto& paragraph : SearchOrder()) out << "  " << paragraph << "\n";
  return out.str();
}

std::string ConfigManPage() {
  ManPage page{
      .program = "ovn-raft-exporter",
      .summary = "Prometheus exporter for the Raft clusters of OVN's databases",
      .synopsis = {"[FLAGS]", "parse-status [FILE|-]", "healthcheck [URL]"},
      .description =
          {"Serves the Raft facts of the local ovsdb-server's clustered databases (OVN "
           "Northbound and Southbound, and the interconnection databases) to Prometheus, and "
           "what applies of a standalone or relay database. On every scrape it asks the server for "
           "cluster/status and its _Server database over their unix sockets, and never sends a "
           "command that changes the cluster. /metrics has the series, /status the parsed "
           "status as JSON (read by ovn-raft-report), /healthz and /readyz the process' and the "
           "databases' health.",
           "parse-status prints the JSON of a saved cluster/status output; healthcheck asks a "
           "running exporter's /healthz and exits 0 when it answers."},
      .version = kBuildVersion,
      .exit_statuses = ExitStatuses(),
      .environment = Environment(),
      .signals = Signals(),
      .sections = {
          {"Files",
           [] {
             std::vector<std::string> files = SearchOrder();
             files.push_back("/etc/default/ovn-raft-exporter: the ARGS the systemd unit passes.");
             files.push_back(
                 "/usr/share/ovn-raft-exporter/: the Prometheus recording rules and alerts, and "
                 "the Grafana dashboards.");
             return files;
           }()},
          {"See also", {"ovn-raft-report(1), ovn-ctl(8), ovsdb-server(1)"}},
      }};
  return RenderManPage(page, ConfigFlags(), kEnvPrefix);
}

ConfigResult ParseConfig(const std::vector<std::string>& args, const EnvLookup& env) {
  return ParseSettings(Table(), args, env, kEnvPrefix, false);
}

}  // namespace ovn_raft
