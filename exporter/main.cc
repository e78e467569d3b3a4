#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/build_version.h"
#include "base/log.h"
#include "base/result.h"
#include "exporter/allocator.h"
#include "exporter/config.h"
#include "exporter/endpoints.h"
#include "exporter/healthcheck_command.h"
#include "exporter/parse_status_command.h"
#include "reader/database_reader.h"
#include "reader/read_coordinator.h"
#include "reader/socket_discovery.h"
#include "web/web_server.h"

namespace ovn_raft {
namespace {

// `items` joined with commas, each as `text` gives it (an empty text is left out).
template <typename List, typename Text>
std::string Commas(const List& items, Text text) {
  std::string out;
  for (const auto& item : items) {
    const std::string t = text(item);
    if (!t.empty()) out += (out.empty() ? "" : ",") + t;
  }
  return out;
}

// The discovery's findings, said in one log line each (sockets, files).
void LogDiscovery(const SocketDiscovery& found, const std::vector<DatabaseTarget>& added) {
  const auto same = [](const std::string& dir) { return dir; };
  const std::string tried = Commas(found.tried, same);
  const std::string files_tried = Commas(found.files_tried, same);
  const std::string files = Commas(added, [](const auto& d) { return d.file_path; });
  const std::string dbs = Commas(added, [](const auto& d) { return d.name; });
  if (found.found_in.empty()) {
    Log(LogLevel::kWarn, "no OVN database socket found; watching NB and SB where they would start",
        {{"tried", tried}, {"watching", found.tried.front()}});
  } else if (!added.empty()) {
    Log(LogLevel::kInfo, "OVN database sockets found",
        {{"dir", found.found_in}, {"databases", dbs}, {"tried", tried}});
  }
  if (added.empty()) return;
  if (files.empty()) {
    Log(LogLevel::kInfo, "no OVN database file found; their size and free space are not read",
        {{"tried", files_tried}});
  } else {
    Log(LogLevel::kInfo, "OVN database files found", {{"files", files}, {"tried", files_tried}});
  }
}

// At boot a database unit may count as started before its server has made its sockets (Debian's
// units run ovn-ctl in the foreground, Type=simple; a pod's containers start side by side), so NB
// or SB found alone may be the other one starting: it gets this long to appear before the
// exporter settles for the one (a host may serve only one).
constexpr auto kPairGrace = std::chrono::seconds(5);

SocketDiscovery DiscoverDatabasesAtStart(bool wait_for_pair) {
  const auto deadline = std::chrono::steady_clock::now() + kPairGrace;
  bool said = false;
  for (;;) {
    SocketDiscovery found = DiscoverDatabases(ProcessEnv("OVN_RUNDIR"), IsSocket);
    const bool alone = !found.found_in.empty() && found.targets.size() == 1;
    if (!wait_for_pair || !alone || std::chrono::steady_clock::now() >= deadline) return found;
    if (!said) {
      Log(LogLevel::kInfo, "one OVN database socket found; waiting for the other's to appear",
          {{"dir", found.found_in},
           {"found", found.targets.front().name},
           {"wait_ms", std::to_string(std::chrono::milliseconds(kPairGrace).count())}});
      said = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

// Without --ovsdb.database, the databases found on this host. With it for some databases only,
// NB and SB not given are still found; one not found is said in one line, with the flag that
// would add it.
std::optional<SocketDiscovery> FindDatabases(Config& config) {
  if (GivesEveryKnownDatabase(config.databases)) return std::nullopt;
  SocketDiscovery found = DiscoverDatabasesAtStart(config.databases.empty());
  DiscoverDatabaseFiles(ProcessEnv("OVN_DBDIR"), IsRegularFile, found);
  if (config.databases.empty()) {
    LogDiscovery(found, found.targets);
    config.databases = found.targets;
    return found;
  }
  DiscoveryMerge merged = AddDiscovered(config.databases, found);
  std::vector<DatabaseTarget> added(merged.targets.end() - merged.added.size(),
                                    merged.targets.end());
  if (!found.found_in.empty()) LogDiscovery(found, added);
  for (const auto& t : merged.not_read) {
    Log(LogLevel::kWarn,
        "database not read: --ovsdb.database names only others, and its socket was not found",
        {{"db", t.name},
         {"tried", Commas(found.tried, [](const std::string& dir) { return dir; })},
         {"to_read_it", "--ovsdb.database=" + t.name + "=" + t.ctl_path + "," + t.sock_path}});
  }
  config.databases = std::move(merged.targets);
  return found;
}

// The signals handled here, blocked before any thread starts so that every thread inherits
// the mask and only the main thread, waiting in sigwait, receives them.
sigset_t BlockHandledSignals() {
  sigset_t handled;
  sigemptyset(&handled);
  sigaddset(&handled, SIGTERM);
  sigaddset(&handled, SIGINT);
  sigaddset(&handled, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &handled, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
  return handled;
}

// Rounds run one at a time (single flight), where the web edge runs the work that allocates
// much (WebServer::RunWork). A caller that may wait for a whole round (no scrape timeout
// shorter: Endpoints::Wait) runs the round it starts; a scrape with a shorter deadline hands it
// to the coordinator's thread.
ReadCoordinator SingleFlight(DatabaseReader& reader, WebServer& web, const Config& config) {
  return ReadCoordinator(
      [&reader, &web](RoundProgress& progress) {
        std::shared_ptr<const Snapshot> snapshot;
        web.RunWork([&] { snapshot = reader.ReadAll(progress); });
        return snapshot;
      },
      config.min_interval, config.timeout + std::chrono::seconds(1));
}

// What the web edge is given: the flags, and the paths it serves to anyone.
WebServerOptions WebOptions(const Config& config) {
  WebServerOptions web;
  web.listen_addresses = config.listen_addresses;
  web.systemd_socket = config.systemd_socket;
  web.config_file = config.web_config_file;
  web.max_connections = config.web_max_connections;
  web.request_timeout = config.web_request_timeout;
  web.allowed_sources = config.web_allowed_sources;
  web.open_paths = Endpoints::OpenPaths();
  return web;
}

// One line with what an operator checks first: where it listens, what it reads, how.
void LogListening(const Config& config, const WebServer& web) {
  const std::string dbs = Commas(config.databases, [](const auto& d) { return d.name; });
  Log(LogLevel::kInfo, "listening",
      {{"address", web.addresses()},
       {"port", std::to_string(web.port())},
       {"systemd_socket", web.systemd_socket() ? "on" : "off"},
       {"telemetry_path", config.telemetry_path},
       {"databases", dbs},
       {"timeout_ms", std::to_string(config.timeout.count())},
       {"min_interval_ms", std::to_string(config.min_interval.count())},
       {"server_facts_interval_ms", std::to_string(config.facts_interval.count())},
       {"basic_auth", web.auth_on() ? "on" : "off"},
       {"tls", web.tls_on() ? "on" : "off"},
       {"version", kBuildVersion}});
}

// SIGHUP re-reads the web config, as daemons under systemd (ExecReload) are expected to;
// SIGTERM and SIGINT stop: the signal that did is returned.
int ServeUntilStopped(const sigset_t& handled, WebServer& web) {
  int signal = 0;
  while (sigwait(&handled, &signal) == 0 && signal == SIGHUP) {
    if (!web.Reload()) {
      Log(LogLevel::kInfo, "SIGHUP: no web config file to reload");
    }
  }
  return signal;
}

// The scrapes in flight finish first (mg_stop alone stopped their writes: empty replies), for
// at most a round's deadline and a margin, inside Kubernetes' default grace period.
void Shutdown(WebServer& server, std::chrono::milliseconds timeout, int signal) {
  const auto grace = timeout + std::chrono::seconds(2);
  Log(LogLevel::kInfo, "shutting down",
      {{"signal", strsignal(signal)}, {"grace_ms", std::to_string(grace.count())}});
  const int unfinished = server.Drain(grace);
  if (unfinished > 0) {
    Log(LogLevel::kWarn, "requests still running at the end of the grace period",
        {{"count", std::to_string(unfinished)}});
  }
}

int Serve(Config config, const std::vector<std::string>& warnings) {
  SetLogLevel(config.log_level);
  SetLogFormat(config.log_format);
  for (const auto& w : warnings) Log(LogLevel::kWarn, "deprecated flag", {{"warning", w}});
  // First, so that every thread started from here on inherits the mask.
  const sigset_t handled = BlockHandledSignals();
  // Before any thread starts: taking the sockets systemd passed changes the environment.
  auto prepared = WebServer::Prepare(WebOptions(config));
  if (!prepared) {
    Log(LogLevel::kError, prepared.error().message, {{"error", prepared.error().error}});
    return prepared.error().exit_code;
  }
  WebServer& web = *prepared.value();

  const auto discovery = FindDatabases(config);
  CallOptions options;
  options.timeout = config.timeout;
  options.max_reply_bytes = config.max_reply_bytes;
  DatabaseReader reader(config.databases, options, config.max_members, config.facts_interval);
  ReadCoordinator coordinator = SingleFlight(reader, web, config);
  Endpoints endpoints(config, coordinator, discovery, &web);
  if (auto failed = web.Start([&endpoints](const HttpRequest& r) { return endpoints.Handle(r); })) {
    Log(LogLevel::kError, failed->message,
        {{"address", web.addresses()}, {"error", failed->error}});
    return failed->exit_code;
  }
  LogListening(config, web);
  Shutdown(web, config.timeout, ServeUntilStopped(handled, web));
  return 0;
}

}  // namespace
}  // namespace ovn_raft

int main(int argc, char** argv) {
  using namespace ovn_raft;
  ConfigureAllocator();
  if (argc >= 2 && std::strcmp(argv[1], "parse-status") == 0) {
    return ParseStatusCommand(argc - 2, argv + 2);
  }
  if (argc >= 2 && std::strcmp(argv[1], "healthcheck") == 0) {
    return HealthcheckCommand(argc - 2, argv + 2);
  }
  // Hidden: the manual page, written by the package build.
  if (argc == 2 && std::strcmp(argv[1], "--help-man") == 0) {
    std::cout << ConfigManPage();
    return 0;
  }
  const ConfigResult parsed =
      ParseConfig(std::vector<std::string>(argv + 1, argv + argc), &ProcessEnv);
  if (parsed.help) {
    std::cout << ConfigUsage();
    return 0;
  }
  if (parsed.version) {
    std::cout << VersionLine("ovn-raft-exporter") << "\n";
    return 0;
  }
  if (!parsed.settings) {
    std::cerr << "ovn-raft-exporter: " << parsed.error.value_or("") << "\n\n" << ConfigUsage();
    return 2;
  }
  return Serve(*parsed.settings, parsed.warnings);
}
