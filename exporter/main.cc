#include <csignal>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/build_version.h"
#include "base/log.h"
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

// Without --ovsdb.database, the databases found on this host. With it for some databases only,
// NB and SB not given are still found; one not found is said in one line, with the flag that
// would add it.
std::optional<SocketDiscovery> FindDatabases(Config& config) {
  if (GivesEveryKnownDatabase(config.databases)) return std::nullopt;
  SocketDiscovery found = DiscoverDatabases(ProcessEnv("OVN_RUNDIR"), IsSocket);
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

int Serve(Config config, const std::vector<std::string>& warnings) {
  SetLogLevel(config.log_level);
  SetLogFormat(config.log_format);
  for (const auto& w : warnings) Log(LogLevel::kWarn, "deprecated flag", {{"warning", w}});
  // First, before any thread starts: it changes the environment.
  std::vector<InheritedSocket> inherited;
  if (config.systemd_socket) {
    auto taken = TakeSystemdSockets();
    if (!taken) {
      Log(LogLevel::kError, "cannot serve the sockets systemd passes (--web.systemd-socket)",
          {{"error", taken.error()}});
      return 1;
    }
    inherited = std::move(taken).value();
  }
  std::unique_ptr<BasicAuth> auth;
  std::unique_ptr<TlsContext> tls;
  std::map<std::string, std::string> headers;
  WebConfigWatcher::Stamp web_config_stamp;
  RateLimit rate_limit;
  if (!config.web_config_file.empty()) {
    // Before the load: a change made while it reads is then seen by the watcher.
    web_config_stamp = WebConfigWatcher::StampOf(config.web_config_file);
    auto web = LoadWebConfig(config.web_config_file);
    if (!web) {
      Log(LogLevel::kError, "invalid web config", {{"error", web.error().message}});
      return 2;
    }
    // Kept even without users, so that a reload of the file can add them.
    auth = std::make_unique<BasicAuth>(web.value().basic_auth_users);
    headers = web.value().headers;
    rate_limit = web.value().rate_limit;
    if (web.value().tls) {
      auto created = TlsContext::Create(*web.value().tls, config.web_config_file);
      if (!created) {
        Log(LogLevel::kError, "invalid web config", {{"error", created.error().message}});
        return 2;
      }
      tls = std::move(created).value();
    }
  }

  // Block the signals handled here in every thread; the main thread waits for them below.
  sigset_t handled;
  sigemptyset(&handled);
  sigaddset(&handled, SIGTERM);
  sigaddset(&handled, SIGINT);
  sigaddset(&handled, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &handled, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  const auto discovery = FindDatabases(config);
  CallOptions options;
  options.timeout = config.timeout;
  options.max_reply_bytes = config.max_reply_bytes;
  DatabaseReader reader(config.databases, options, config.max_members, config.facts_interval);
  // Rounds run one at a time (single flight): one thread of their own, whichever worker
  // asked (task_pool.h says why); where glibc's per-thread caches are off (the image, the
  // unit), on that worker, sparing two hand-overs per scrape.
  const bool caches_off = ThreadCachesOff();
  TaskPool rounds(caches_off ? 0 : 1);
  // A caller that may wait this long (no scrape timeout shorter: Endpoints::Wait) runs the
  // round it starts; a scrape with a shorter deadline hands it to the coordinator's thread.
  ReadCoordinator coordinator(
      [&reader, &rounds](RoundProgress& progress) {
        std::shared_ptr<const Snapshot> snapshot;
        rounds.Run([&] { snapshot = reader.ReadAll(progress); });
        return snapshot;
      },
      config.min_interval, config.timeout + std::chrono::seconds(1));
  const bool auth_on = auth && auth->users() > 0;
  Endpoints endpoints(config, coordinator, std::move(auth), web_config_stamp, tls != nullptr,
                      discovery, caches_off ? 0 : -1);
  endpoints.response_headers().Replace(std::move(headers));
  endpoints.rate_limiter().Set(rate_limit);
  HttpServer server([&endpoints](const HttpRequest& r) { return endpoints.Handle(r); });
  HttpServerOptions web;
  web.threads = config.web_max_connections;
  web.request_timeout = config.web_request_timeout;
  web.allowed_sources = config.web_allowed_sources;
  web.tls = tls.get();
  web.inherited = inherited;
  const std::string addresses =
      inherited.empty() ? Commas(config.listen_addresses, [](const auto& a) { return a.spec; })
                        : Commas(inherited, [](const auto& s) { return s.address; });
  if (auto failed = server.Start(config.listen_addresses, web)) {
    Log(LogLevel::kError, "cannot start HTTP server",
        {{"address", addresses}, {"error", failed->message}});
    return 1;
  }
  const std::string dbs = Commas(config.databases, [](const auto& d) { return d.name; });
  Log(LogLevel::kInfo, "listening",
      {{"address", addresses},
       {"port", std::to_string(server.port())},
       {"systemd_socket", inherited.empty() ? "off" : "on"},
       {"telemetry_path", config.telemetry_path},
       {"databases", dbs},
       {"timeout_ms", std::to_string(config.timeout.count())},
       {"min_interval_ms", std::to_string(config.min_interval.count())},
       {"server_facts_interval_ms", std::to_string(config.facts_interval.count())},
       {"basic_auth", auth_on ? "on" : "off"},
       {"tls", tls ? "on" : "off"},
       {"thread_caches", caches_off ? "off" : "on"},
       {"version", kBuildVersion}});

  // SIGHUP re-reads the web config, as daemons under systemd (ExecReload) are expected to;
  // SIGTERM and SIGINT stop.
  int signal = 0;
  while (sigwait(&handled, &signal) == 0 && signal == SIGHUP) {
    if (!endpoints.ReloadWebConfig()) {
      Log(LogLevel::kInfo, "SIGHUP: no web config file to reload");
    }
  }
  // The scrapes in flight finish first (mg_stop alone stopped their writes: empty replies), for
  // at most a round's deadline and a margin, inside Kubernetes' default grace period.
  const auto grace = config.timeout + std::chrono::seconds(2);
  Log(LogLevel::kInfo, "shutting down",
      {{"signal", strsignal(signal)}, {"grace_ms", std::to_string(grace.count())}});
  const int unfinished = server.Drain(grace);
  if (unfinished > 0) {
    Log(LogLevel::kWarn, "requests still running at the end of the grace period",
        {{"count", std::to_string(unfinished)}});
  }
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
