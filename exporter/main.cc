#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/build_version.h"
#include "base/log.h"
#include "base/result.h"
#include "base/task_pool.h"
#include "exporter/allocator.h"
#include "exporter/config.h"
#include "exporter/endpoints.h"
#include "exporter/healthcheck_command.h"
#include "exporter/parse_status_command.h"
#include "reader/database_reader.h"
#include "reader/read_coordinator.h"
#include "reader/socket_discovery.h"
#include "web/basic_auth.h"
#include "web/http_server.h"
#include "web/systemd_socket.h"
#include "web/tls_context.h"
#include "web/web_config.h"
#include "web/web_config_watcher.h"

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

// The sockets systemd passed, with --web.systemd-socket; none without it.
Result<std::vector<InheritedSocket>, std::string> InheritedSockets(bool systemd_socket) {
  if (!systemd_socket) return std::vector<InheritedSocket>{};
  return TakeSystemdSockets();
}

// Where it serves, as logs say it: the passed sockets take the place of the listen addresses.
std::string ServedAddresses(const Config& config, const std::vector<InheritedSocket>& inherited) {
  return inherited.empty() ? Commas(config.listen_addresses, [](const auto& a) { return a.spec; })
                           : Commas(inherited, [](const auto& s) { return s.address; });
}

// What the web config file sets at start: the users (kept even without any, so that a reload
// of the file can add them), TLS, headers and the rate limit. Nothing without a file.
struct WebSettings {
  std::unique_ptr<BasicAuth> auth;
  std::unique_ptr<TlsContext> tls;
  std::map<std::string, std::string> headers;
  WebConfigWatcher::Stamp stamp;
  RateLimit rate_limit;
};

// An invalid file is the error's message: the exporter does not start on it.
Result<WebSettings, std::string> LoadWebSettings(const std::string& path) {
  WebSettings settings;
  if (path.empty()) return settings;
  // Before the load: a change made while it reads is then seen by the watcher.
  settings.stamp = WebConfigWatcher::StampOf(path);
  auto web = LoadWebConfig(path);
  if (!web) return web.error().message;
  settings.auth = std::make_unique<BasicAuth>(web.value().basic_auth_users);
  settings.headers = web.value().headers;
  settings.rate_limit = web.value().rate_limit;
  if (web.value().tls) {
    auto created = TlsContext::Create(*web.value().tls, path);
    if (!created) return created.error().message;
    settings.tls = std::move(created).value();
  }
  return settings;
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

// Rounds run one at a time (single flight): on the asking worker when it is one of the web
// edge's core workers, otherwise on the pool's one thread (task_pool.h, web/worker_gate.h).
// A caller that may wait for a whole round (no scrape timeout shorter: Endpoints::Wait) runs
// the round it starts; a scrape with a shorter deadline hands it to the coordinator's thread.
ReadCoordinator SingleFlight(DatabaseReader& reader, TaskPool& rounds, const Config& config) {
  return ReadCoordinator(
      [&reader, &rounds](RoundProgress& progress) {
        std::shared_ptr<const Snapshot> snapshot;
        rounds.Run([&] { snapshot = reader.ReadAll(progress); });
        return snapshot;
      },
      config.min_interval, config.timeout + std::chrono::seconds(1));
}

HttpServerOptions WebServerOptions(const Config& config, TlsContext* tls,
                                   const std::vector<InheritedSocket>& inherited) {
  HttpServerOptions web;
  web.threads = config.web_max_connections;
  web.request_timeout = config.web_request_timeout;
  web.allowed_sources = config.web_allowed_sources;
  web.tls = tls;
  web.inherited = inherited;
  return web;
}

// One line with what an operator checks first: where it listens, what it reads, how.
void LogListening(const Config& config, const std::string& addresses, int port, bool systemd_socket,
                  bool auth_on, bool tls_on) {
  const std::string dbs = Commas(config.databases, [](const auto& d) { return d.name; });
  Log(LogLevel::kInfo, "listening",
      {{"address", addresses},
       {"port", std::to_string(port)},
       {"systemd_socket", systemd_socket ? "on" : "off"},
       {"telemetry_path", config.telemetry_path},
       {"databases", dbs},
       {"timeout_ms", std::to_string(config.timeout.count())},
       {"min_interval_ms", std::to_string(config.min_interval.count())},
       {"server_facts_interval_ms", std::to_string(config.facts_interval.count())},
       {"basic_auth", auth_on ? "on" : "off"},
       {"tls", tls_on ? "on" : "off"},
       {"version", kBuildVersion}});
}

// SIGHUP re-reads the web config, as daemons under systemd (ExecReload) are expected to;
// SIGTERM and SIGINT stop: the signal that did is returned.
int ServeUntilStopped(const sigset_t& handled, Endpoints& endpoints) {
  int signal = 0;
  while (sigwait(&handled, &signal) == 0 && signal == SIGHUP) {
    if (!endpoints.ReloadWebConfig()) {
      Log(LogLevel::kInfo, "SIGHUP: no web config file to reload");
    }
  }
  return signal;
}

// The scrapes in flight finish first (mg_stop alone stopped their writes: empty replies), for
// at most a round's deadline and a margin, inside Kubernetes' default grace period.
void Shutdown(HttpServer& server, std::chrono::milliseconds timeout, int signal) {
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
  // First, before any thread starts: it changes the environment.
  auto taken = InheritedSockets(config.systemd_socket);
  if (!taken) {
    Log(LogLevel::kError, "cannot serve the sockets systemd passes (--web.systemd-socket)",
        {{"error", taken.error()}});
    return 1;
  }
  const std::vector<InheritedSocket> inherited = std::move(taken).value();
  auto loaded = LoadWebSettings(config.web_config_file);
  if (!loaded) {
    Log(LogLevel::kError, "invalid web config", {{"error", loaded.error()}});
    return 2;
  }
  WebSettings web = std::move(loaded).value();
  const sigset_t handled = BlockHandledSignals();

  const auto discovery = FindDatabases(config);
  CallOptions options;
  options.timeout = config.timeout;
  options.max_reply_bytes = config.max_reply_bytes;
  DatabaseReader reader(config.databases, options, config.max_members, config.facts_interval);
  TaskPool rounds(1);
  ReadCoordinator coordinator = SingleFlight(reader, rounds, config);
  const bool auth_on = web.auth && web.auth->users() > 0;
  Endpoints endpoints(config, coordinator, std::move(web.auth), web.stamp, web.tls != nullptr,
                      discovery);
  endpoints.response_headers().Replace(std::move(web.headers));
  endpoints.rate_limiter().Set(web.rate_limit);
  HttpServer server([&endpoints](const HttpRequest& r) { return endpoints.Handle(r); });
  const std::string addresses = ServedAddresses(config, inherited);
  if (auto failed = server.Start(config.listen_addresses,
                                 WebServerOptions(config, web.tls.get(), inherited))) {
    Log(LogLevel::kError, "cannot start HTTP server",
        {{"address", addresses}, {"error", failed->message}});
    return 1;
  }
  LogListening(config, addresses, server.port(), !inherited.empty(), auth_on, web.tls != nullptr);
  Shutdown(server, config.timeout, ServeUntilStopped(handled, endpoints));
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
