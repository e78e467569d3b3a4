#pragma once

// The web edge behind one entry point, in the role exporter-toolkit's web.ListenAndServe plays
// for the Go exporters: an exporter gives its options and its routes, and this serves them on
// its listen addresses or the sockets systemd passed, with everything between a client and a
// route: the web config file and its reloads, TLS and client certificates, basic auth, allowed
// sources, each address's share of the workers, the rate limit, headers, compression, and
// where the work that allocates much runs (RunWork). The exporter keeps its routes, and exposes
// the refusals counted here (refusals()). How it holds against hostile clients:
// docs/dev/abuse.md.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "base/result.h"
#include "web/http_message.h"
#include "web/listen_address.h"
#include "web/systemd_socket.h"

namespace ovn_raft {

class HttpServer;
class RequestGuards;
class TaskPool;
class TlsContext;

struct WebServerOptions {
  std::vector<ListenAddress> listen_addresses;
  bool systemd_socket = false;  // serve the sockets systemd passes instead of the addresses
  std::string config_file;      // exporter-toolkit's web config file; "": none
  int max_connections = 0;      // connections served at once (one worker each)
  std::chrono::milliseconds request_timeout{0};  // to receive a request (one per connection)
  std::vector<std::string> allowed_sources;      // IPv4/IPv6 CIDRs; empty: everyone
  // Served to anyone, with no share, rate limit or credentials: liveness probes.
  std::vector<std::string> open_paths;
};

// Requests refused before a route, by reason, since the start.
struct WebRefusals {
  std::uint64_t auth_failed = 0;     // wrong or missing credentials (401)
  std::uint64_t auth_throttled = 0;  // too many password checks at once (429)
  std::uint64_t source_busy = 0;     // too many requests from one address at once (429)
  std::uint64_t rate_limited = 0;    // past the web config's rate_limit (429)
};

// Why the web edge cannot serve: a log line's message and error, and the exit code.
struct WebFailure {
  std::string message;
  std::string error;
  int exit_code = 1;
};

class WebServer {
 public:
  using Routes = std::function<HttpResponse(const HttpRequest&)>;

  // Takes the sockets systemd passed (it changes the environment: call it before any thread
  // starts) and loads the web config file; an invalid file fails with exit code 2. Serves
  // nothing yet.
  static Result<std::unique_ptr<WebServer>, WebFailure> Prepare(WebServerOptions options);
  ~WebServer();
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  // Serves `routes`; the error when it cannot listen (failure's exit code 1).
  std::optional<WebFailure> Start(Routes routes);
  // SIGHUP: re-reads the web config file now; false when there is none.
  bool Reload();
  // SIGTERM: requests in flight finish and send their pages, for at most `grace`; requests that
  // arrive meanwhile get 503. Returns how many were still running at the end of the grace.
  int Drain(std::chrono::milliseconds grace);

  // Runs `task` and returns when it has ended, where the work that allocates much (a round of
  // reads, a page's rendering) belongs: glibc keeps a cache of the small blocks each thread
  // freed for as long as it lives, so that work stays on a few threads. The web edge's core
  // workers and every thread not the web edge's run it themselves; a reserve worker hands it to
  // the web edge's work pool (as many threads as cores, from 2 to 4). The one answer to where such
  // work runs. An exception `task` throws is thrown here.
  template <typename Task>
  void RunWork(Task&& task) {
    RunErased(&Invoke<std::remove_reference_t<Task>>, &task);
  }

  WebRefusals refusals() const;
  int port() const;                                            // the first address's
  const std::string& addresses() const { return addresses_; }  // as logs say them
  bool systemd_socket() const { return systemd_socket_; }
  bool auth_on() const;  // the web config file has users
  bool tls_on() const { return tls_ != nullptr; }

 private:
  struct Prepared;
  explicit WebServer(Prepared prepared);
  template <typename Task>
  static void Invoke(void* task) {
    (*static_cast<Task*>(task))();
  }
  void RunErased(void (*invoke)(void*), void* task);

  const WebServerOptions options_;
  std::vector<InheritedSocket> inherited_;
  std::string addresses_;
  bool systemd_socket_ = false;
  std::unique_ptr<TlsContext> tls_;
  std::unique_ptr<RequestGuards> guards_;
  std::unique_ptr<TaskPool> work_;  // made by Start, after the caller blocked its signals
  Routes routes_;
  std::unique_ptr<HttpServer> http_;
};

}  // namespace ovn_raft
