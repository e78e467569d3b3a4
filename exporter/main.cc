#include <malloc.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/build_version.h"
#include "base/log.h"
#include "exporter/config.h"
#include "exporter/endpoints.h"
#include "exporter/healthcheck_command.h"
#include "exporter/parse_status_command.h"
#include "reader/database_reader.h"
#include "reader/read_coordinator.h"
#include "reader/socket_discovery.h"
#include "web/basic_auth.h"
#include "web/http_server.h"
#include "web/tls_context.h"
#include "web/web_config.h"

namespace ovn_raft {
namespace {

// Without --ovsdb.database, the databases found on this host, said in one log line.
std::optional<SocketDiscovery> FindDatabases(Config& config) {
  if (!config.databases.empty()) return std::nullopt;
  SocketDiscovery found = DiscoverDatabases(ProcessEnv("OVN_RUNDIR"), IsSocket);
  std::string tried, dbs;
  for (const auto& dir : found.tried) tried += (tried.empty() ? "" : ",") + dir;
  for (const auto& d : found.targets) dbs += (dbs.empty() ? "" : ",") + d.name;
  if (found.found_in.empty()) {
    Log(LogLevel::kWarn, "no OVN database socket found; watching NB and SB where they would start",
        {{"tried", tried}, {"watching", found.tried.front()}});
  } else {
    Log(LogLevel::kInfo, "OVN database sockets found",
        {{"dir", found.found_in}, {"databases", dbs}, {"tried", tried}});
  }
  config.databases = found.targets;
  return found;
}

int Serve(Config config, const std::vector<std::string>& warnings) {
  SetLogLevel(config.log_level);
  SetLogFormat(config.log_format);
  for (const auto& w : warnings) Log(LogLevel::kWarn, "deprecated flag", {{"warning", w}});
  std::unique_ptr<BasicAuth> auth;
  std::unique_ptr<TlsContext> tls;
  if (!config.web_config_file.empty()) {
    auto web = LoadWebConfig(config.web_config_file);
    if (!web) {
      Log(LogLevel::kError, "invalid web config", {{"error", web.error().message}});
      return 2;
    }
    // Kept even without users, so that a reload of the file can add them.
    auth = std::make_unique<BasicAuth>(web.value().basic_auth_users);
    if (web.value().tls) {
      auto created = TlsContext::Create(*web.value().tls);
      if (!created) {
        Log(LogLevel::kError, "invalid web config", {{"error", created.error().message}});
        return 2;
      }
      tls = std::move(created).value();
    }
  }

  // Block the stop signals in every thread; the main thread waits for them below.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  const auto discovery = FindDatabases(config);
  CallOptions options;
  options.timeout = config.timeout;
  options.max_reply_bytes = config.max_reply_bytes;
  DatabaseReader reader(config.databases, options, config.max_members, config.facts_interval);
  ReadCoordinator coordinator(
      [&reader](std::chrono::milliseconds timeout, const std::function<void()>& while_waiting) {
        return reader.ReadAll(timeout, while_waiting);
      },
      config.min_interval, config.timeout);
  const bool auth_on = auth && auth->users() > 0;
  Endpoints endpoints(config, coordinator, std::move(auth), discovery);
  HttpServer server([&endpoints](const HttpRequest& r) { return endpoints.Handle(r); });
  HttpServerOptions web;
  web.threads = config.web_max_connections;
  web.request_timeout = config.web_request_timeout;
  web.allowed_sources = config.web_allowed_sources;
  web.tls = tls.get();
  std::string addresses;
  for (const auto& a : config.listen_addresses)
    addresses += (addresses.empty() ? "" : ",") + a.spec;
  if (auto failed = server.Start(config.listen_addresses, web)) {
    Log(LogLevel::kError, "cannot start HTTP server",
        {{"address", addresses}, {"error", failed->message}});
    return 1;
  }
  std::string dbs;
  for (const auto& d : config.databases) dbs += (dbs.empty() ? "" : ",") + d.name;
  Log(LogLevel::kInfo, "listening",
      {{"address", addresses},
       {"port", std::to_string(server.port())},
       {"telemetry_path", config.telemetry_path},
       {"databases", dbs},
       {"timeout_ms", std::to_string(config.timeout.count())},
       {"min_interval_ms", std::to_string(config.min_interval.count())},
       {"server_facts_interval_ms", std::to_string(config.facts_interval.count())},
       {"basic_auth", auth_on ? "on" : "off"},
       {"tls", tls ? "on" : "off"},
       {"version", kBuildVersion}});

  int signal = 0;
  sigwait(&stop, &signal);
  // The scrapes in flight finish first (mg_stop alone stopped their writes: empty replies), for
  // at most a round's deadline and a margin, well inside Kubernetes' 30 s grace period.
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

// glibc keeps freed blocks in a cache per thread (tcache) and never hands them back. civetweb
// gives each connection to another of its 256 workers, so every worker came to hold ~35 KiB:
// 22 MiB resident after 800 scrapes, 14 MiB without the caches. Only GLIBC_TUNABLES, read at
// start, turns them off: the daemon sets it and runs itself again, once. An operator's own
// tcache_count is kept; without /proc the daemon goes on with the caches.
void RestartWithoutThreadCaches(char** argv) {
  constexpr char kTunable[] = "glibc.malloc.tcache_count";
  const char* current = std::getenv("GLIBC_TUNABLES");
  if (current != nullptr && std::strstr(current, kTunable) != nullptr) return;
  std::string value = std::string(kTunable) + "=0";
  if (current != nullptr && *current != '\0') value = std::string(current) + ":" + value;
  if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  Log(LogLevel::kWarn, "could not turn off glibc's per-thread caches",
      {{"error", std::strerror(errno)}});
}

}  // namespace
}  // namespace ovn_raft

int main(int argc, char** argv) {
  // Every scrape may run on another of civetweb's worker threads, and glibc gives threads
  // arenas of their own that each keep their peak: two arenas keep memory near one reply's.
  mallopt(M_ARENA_MAX, 2);
  // A hostile or huge reply (up to --ovsdb.max-reply-size, on every connection of a round at
  // once) is held in blocks of megabytes. glibc raises its mmap threshold each time such a
  // block is freed, and the next ones then come from the heap and stay: fixed at 1 MiB, they
  // are mapped and handed back as soon as they are freed.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  // Fixing that threshold also fixes the trim threshold at glibc's 128 KiB, which one scrape's
  // free top of heap passes: every scrape then gave its pages back (brk, madvise) and faulted
  // them in again, the better part of the exporter's own time. 512 KiB holds a scrape's peak.
  mallopt(M_TRIM_THRESHOLD, 512 << 10);
  using namespace ovn_raft;
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
  RestartWithoutThreadCaches(argv);
  return Serve(*parsed.settings, parsed.warnings);
}
