#pragma once

// The HTTP edge: civetweb (C API) serving requests through one handler. civetweb stays an
// implementation detail of this file.

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "web/accept_filter.h"
#include "web/http_message.h"
#include "web/listen_address.h"
#include "web/setup_error.h"
#include "web/source_connections.h"
#include "web/systemd_socket.h"

struct mg_context;
struct mg_connection;

namespace ovn_raft {

class TlsContext;
class WorkerGate;

// How the edge holds up against slow or hostile clients: docs/dev/abuse.md.
struct HttpServerOptions {
  // --web.max-connections and --web.request-timeout (their defaults: exporter/config.cc).
  int threads = 0;                               // connections served at once (one worker each)
  std::chrono::milliseconds request_timeout{0};  // to receive a request (one per connection)
  std::vector<std::string> allowed_sources;      // IPv4/IPv6 CIDRs; empty: everyone
  TlsContext* tls = nullptr;                     // HTTPS on every address when set
  // Connections one source may hold between accept and close (source_connections.h);
  // 0: SourceConnections::LimitFor(threads).
  int connections_per_source = 0;
  // --web.systemd-socket: served instead of the addresses (each already listening).
  std::vector<InheritedSocket> inherited;
};

class HttpServer {
 public:
  using Handler = std::function<HttpResponse(const HttpRequest&)>;

  explicit HttpServer(Handler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Listens on every address (port 0 picks a free one: see port()), or serves
  // `options.inherited` instead when given; an error when it cannot listen on one of them, or
  // this build's civetweb lacks IPv6 or TLS where they are asked for.
  std::optional<SetupError> Start(const std::vector<ListenAddress>& addresses,
                                  const HttpServerOptions& options);
  void Stop();
  // SIGTERM: requests in flight finish and send their pages, for at most `grace`; requests that
  // arrive meanwhile get 503 and Connection: close. Then Stop(). Returns how many requests were
  // still running when the grace period ended (0: all finished).
  int Drain(std::chrono::milliseconds grace);
  int port() const { return port_; }  // the first address's

 private:
  static int OnRequest(::mg_connection* conn);
  // The worker gate's events (worker_gate.h).
  static void* OnInitThread(const ::mg_context* ctx, int thread_type);
  static int OnInitConnection(const ::mg_connection* conn, void** data);
  static void OnConnectionClosed(const ::mg_connection* conn);
  static int OnInitTls(void* ssl_ctx, void* user_data);
  static void OnInitContext(const ::mg_context* ctx);
  std::optional<SetupError> AdoptInherited(const ::mg_context* ctx);
  // accept_filter.h: a connection just accepted, counted against its source's bound.
  bool Admit(int fd, const sockaddr_storage& peer);
  // Starts civetweb with `civet_options` (null-terminated) and learns the port it serves.
  std::optional<SetupError> Launch(const char** civet_options, const std::string& specs);
  Handler handler_;
  std::unique_ptr<WorkerGate> gate_;
  std::unique_ptr<SourceConnections> connections_;
  std::vector<std::string> allowed_sources_;
  AcceptFilter accept_filter_;
  std::unique_ptr<AcceptFilterRegistration> registration_;
  std::atomic<int> active_{0};
  std::atomic<bool> draining_{false};
  mg_context* ctx_ = nullptr;
  TlsContext* tls_ = nullptr;
  std::vector<InheritedSocket> inherited_;
  std::optional<SetupError> adopt_error_;
  int port_ = 0;
};

}  // namespace ovn_raft
