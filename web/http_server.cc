#include "web/http_server.h"

#include <arpa/inet.h>
#include <civetweb.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#if OVN_RAFT_TLS
#include <openssl/ssl.h>
#endif

#include "base/log.h"
#include "base/result.h"
#include "base/strings.h"
#include "web/cidr.h"
#include "web/gzip.h"
#include "web/listen_address.h"
#include "web/source_key.h"
#include "web/tls_context.h"
#include "web/worker_gate.h"

namespace ovn_raft {
namespace {

// The workers that always wait in civetweb's queue (worker_gate.h): enough for a few scrapers
// at once (two Prometheus replicas, a person with curl) without letting a reserve worker in.
constexpr int kCoreWorkers = 4;

const char* Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 401:
      return "Unauthorized";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return "Status";
  }
}

// civetweb's messages are mostly about clients (a refused source, a broken request): anyone
// can cause them, one per connection. At most kLogBurst lines per kLogWindow; the rest are
// counted and said in one line when the window ends.
constexpr int kLogBurst = 10;
constexpr auto kLogWindow = std::chrono::seconds(10);

int OnLog(const mg_connection*, const char* message) {
  static std::mutex mu;
  static std::chrono::steady_clock::time_point window;
  static int logged = 0, suppressed = 0;
  int dropped = 0;
  {
    const std::lock_guard<std::mutex> lock(mu);
    const auto now = std::chrono::steady_clock::now();
    if (now - window >= kLogWindow) {
      dropped = suppressed;
      window = now;
      logged = suppressed = 0;
    }
    if (logged >= kLogBurst) {
      ++suppressed;
      return 1;
    }
    ++logged;
  }
  if (dropped > 0) {
    Log(LogLevel::kWarn, "http server messages suppressed",
        {{"count", std::to_string(dropped)}, {"window", "10s"}});
  }
  Log(LogLevel::kWarn, "http server", {{"error", message}});
  return 1;
}

// The descriptor of this process' socket listening on 127.0.0.1:`port`, or -1.
int LoopbackListener(std::uint16_t port) {
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return -1;
  int found = -1;
  while (const dirent* entry = readdir(dir)) {
    const auto fd = ParseUint(entry->d_name);
    if (!fd || static_cast<int>(*fd) == dirfd(dir)) continue;
    sockaddr_in addr{};
    socklen_t len = sizeof(addr);
    int listening = 0;
    socklen_t flag_len = sizeof(listening);
    if (getsockname(static_cast<int>(*fd), reinterpret_cast<sockaddr*>(&addr), &len) == 0 &&
        addr.sin_family == AF_INET && ntohs(addr.sin_port) == port &&
        addr.sin_addr.s_addr == htonl(INADDR_LOOPBACK) &&
        getsockopt(static_cast<int>(*fd), SOL_SOCKET, SO_ACCEPTCONN, &listening, &flag_len) == 0 &&
        listening) {
      found = static_cast<int>(*fd);
      break;
    }
  }
  closedir(dir);
  return found;
}

// What civetweb is told to listen on ("listening_ports") and how the addresses are said in
// errors and logs.
struct Listeners {
  std::string ports;
  std::string specs;
};

// Sockets systemd passed take the place of the addresses: civetweb listens on loopback ports
// of its own, replaced by the passed sockets once it listens (HttpServer::AdoptInherited).
// An IPv6 address in a build without IPv6 is refused here, naming the fix.
Result<Listeners, SetupError> CivetwebListeners(const std::vector<ListenAddress>& addresses,
                                                const std::vector<InheritedSocket>& inherited,
                                                bool tls, bool has_ipv6) {
  Listeners out;
  for (const auto& socket : inherited) {
    if (socket.ipv6 && !has_ipv6) {
      return SetupError{"cannot serve the socket systemd passed, " + socket.address +
                        ": this build's civetweb has no IPv6; give the .socket unit an IPv4 "
                        "address (ListenStream=0.0.0.0:PORT)"};
    }
    out.ports += std::string(out.ports.empty() ? "" : ",") + "127.0.0.1:0" + (tls ? "s" : "");
    out.specs += (out.specs.empty() ? "" : ", ") + socket.address;
  }
  for (const auto& address : inherited.empty() ? addresses : std::vector<ListenAddress>{}) {
    if (address.ipv6 && !has_ipv6) {
      return SetupError{"cannot listen on " + address.spec +
                        ": this build's civetweb has no IPv6 (mg_check_feature(8) is 0; Debian "
                        "12's libcivetweb lacks it); listen on an IPv4 address, or build with "
                        "-DOVN_RAFT_CIVETWEB=source (the image does)"};
    }
    out.ports += (out.ports.empty() ? "" : ",") + address.CivetwebPorts() + (tls ? "s" : "");
    out.specs += (out.specs.empty() ? "" : ", ") + address.spec;
  }
  return out;
}

// Accepted connections wait here for a worker, in order; a full queue would stall accept()
// and leave new connections to SYN retries (seconds each). Every queued connection and
// every worker holds a descriptor: the queue stays within the descriptor limit (raised to
// its hard maximum first), or accept() fails with EMFILE and civetweb's accept loop spins.
Result<long, SetupError> ConnectionQueueDepth(int threads) {
  rlimit files{};
  long queue_depth = std::max(1024, 4 * threads);
  if (getrlimit(RLIMIT_NOFILE, &files) != 0) return queue_depth;
  if (files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    getrlimit(RLIMIT_NOFILE, &files);
  }
  const long spare = static_cast<long>(std::min<rlim_t>(files.rlim_cur, 1 << 20)) - threads -
                     64;  // workers, ovsdb sockets, logs
  if (spare < 16) {
    return SetupError{"the descriptor limit (" + std::to_string(files.rlim_cur) +
                      ") is too low for --web.max-connections=" + std::to_string(threads) +
                      ": raise it or lower that"};
  }
  if (spare < queue_depth) {
    Log(LogLevel::kWarn, "connection queue shortened to fit the descriptor limit",
        {{"queue", std::to_string(spare)}, {"nofile", std::to_string(files.rlim_cur)}});
    queue_depth = spare;
  }
  return queue_depth;
}

// civetweb refuses other sources in its accepting thread, before they take a worker.
// Without IPv6 no IPv6 peer can connect, and civetweb would refuse an IPv6 entry. An IPv4
// client of a dual-stack socket ([::]:PORT) arrives as ::ffff:a.b.c.d: each IPv4 entry also
// admits that form. Empty: every source is allowed.
std::string AccessControlList(const std::vector<std::string>& allowed_sources, bool has_ipv6) {
  std::string acl;
  for (const auto& cidr : allowed_sources) {
    if (!IsIpv6Cidr(cidr) || has_ipv6) acl += ",+" + cidr;
    if (!IsIpv6Cidr(cidr) && has_ipv6) acl += ",+" + Ipv4MappedCidr(cidr);
  }
  if (!allowed_sources.empty()) acl = "-0.0.0.0/0" + acl;
  return acl;
}

// The source a connection accounts to (SourceKey), from civetweb's text of its address (an
// IPv6 link-local one may carry a %zone) or a socket's.
std::string ConnectionSource(const std::string& address) {
  return SourceKey(address.substr(0, address.find('%')));
}

// The text and port of a socket address; port -1 when it is neither IPv4 nor IPv6.
std::pair<std::string, int> AddressOf(const sockaddr_storage& addr) {
  char text[INET6_ADDRSTRLEN] = "";
  if (addr.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&addr);
    inet_ntop(AF_INET, &in->sin_addr, text, sizeof(text));
    return {text, ntohs(in->sin_port)};
  }
  if (addr.ss_family == AF_INET6) {
    const auto* in = reinterpret_cast<const sockaddr_in6*>(&addr);
    inet_ntop(AF_INET6, &in->sin6_addr, text, sizeof(text));
    return {text, ntohs(in->sin6_port)};
  }
  return {"", -1};
}

// The TLS connection the calling worker holds, from its handshake's start: civetweb tells the
// connection_closed callback nothing of a connection whose handshake failed.
thread_local std::pair<std::string, int> tls_peer{"", -1};

#if OVN_RAFT_TLS
void (*gate_handshakes)(const SSL*, int, int) = nullptr;  // WorkerGate::WatchHandshakes'

void OnHandshake(const SSL* ssl, int where, int ret) {
  if (gate_handshakes != nullptr) gate_handshakes(ssl, where, ret);
  if ((where & SSL_CB_HANDSHAKE_START) == 0) return;
  sockaddr_storage peer{};
  socklen_t len = sizeof(peer);
  tls_peer = getpeername(SSL_get_fd(ssl), reinterpret_cast<sockaddr*>(&peer), &len) == 0
                 ? AddressOf(peer)
                 : std::pair<std::string, int>{"", -1};
}
#endif

}  // namespace

// On civetweb's accepting thread, before the connection is queued for a worker
// (accept_filter.h). A source at its bound of connections makes room by shutting down one of its
// connections that has sent no request (source_connections.h: whether it sent anything is
// the kernel's count of bytes received), which frees that worker or queue place at once.
// That socket is checked to be still the one accepted (same peer) first: a worker may have
// closed it meanwhile, and its descriptor number been reused.
bool HttpServer::Admit(int fd, const sockaddr_storage& peer) {
  const auto [address, port] = AddressOf(peer);
  // A source civetweb's access list refuses is closed by civetweb, never by a worker: not
  // counted.
  if (port < 0 || !InCidrList(allowed_sources_, address)) return true;
  const std::string source = ConnectionSource(address);
  const auto decision = connections_->Opened(source, port, fd, [](int held) {
    tcp_info info{};
    socklen_t len = sizeof(info);
    return getsockopt(held, IPPROTO_TCP, TCP_INFO, &info, &len) != 0 ||
           info.tcpi_bytes_received > 0;
  });
  if (decision.shed) {
    sockaddr_storage held{};
    socklen_t len = sizeof(held);
    const auto [held_address, held_port] =
        getpeername(decision.shed->fd, reinterpret_cast<sockaddr*>(&held), &len) == 0
            ? AddressOf(held)
            : std::pair<std::string, int>{"", -1};
    if (held_port == decision.shed->port && ConnectionSource(held_address) == source) {
      shutdown(decision.shed->fd, SHUT_RDWR);
    } else {
      connections_->Closed(source, decision.shed->port);
    }
  }
  if (decision.admitted) return true;
  // Every connection the source holds is serving a request: this one is reset, at no cost.
  const linger reset{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
  close(fd);
  const std::string message =
      "connection from " + address + " refused: its source holds as many connections as it may";
  OnLog(nullptr, message.c_str());
  return false;
}

int HttpServer::OnRequest(mg_connection* conn) {
  const mg_request_info* info = mg_get_request_info(conn);
  auto* self = static_cast<HttpServer*>(info->user_data);
  self->connections_->Requested(ConnectionSource(info->remote_addr), info->remote_port);
  // Nothing here takes a body. civetweb would read one to its end after the handler, its
  // timeout restarting with every byte, so bodies trickled slowly could hold every worker.
  // mg_send_http_error closes the connection without reading it.
  if (info->content_length > 0 || mg_get_header(conn, "Transfer-Encoding") != nullptr) {
    mg_send_http_error(conn, 413, "%s", "requests take no body\n");
    return 413;
  }
  HttpRequest request;
  request.method = info->request_method ? info->request_method : "";
  request.path = info->local_uri ? info->local_uri : "";
  if (const char* h = mg_get_header(conn, "Authorization")) request.authorization = h;
  if (const char* h = mg_get_header(conn, "X-Prometheus-Scrape-Timeout-Seconds")) {
    request.scrape_timeout = h;
  }
  if (const char* h = mg_get_header(conn, "Accept-Encoding")) request.accept_encoding = h;
  request.source = info->remote_addr;
  struct Active {
    std::atomic<int>& n;
    explicit Active(std::atomic<int>& count) : n(count) { ++n; }
    ~Active() { --n; }
  } active(self->active_);
  HttpResponse response;
  try {
    response = self->draining_
                   ? HttpResponse{503, "text/plain; charset=utf-8", "shutting down\n", {}}
                   : self->handler_(request);
  } catch (const std::exception& e) {
    // Handlers do not throw by design; this keeps a bug from killing the process.
    Log(LogLevel::kError, "request handler failed", {{"path", request.path}, {"error", e.what()}});
    response = HttpResponse{500, "text/plain; charset=utf-8", "internal error\n", {}};
  }
  // Pages worth it, for clients that ask: Prometheus does on every scrape.
  if (response.body.size() >= 1024 && AcceptsGzip(request.accept_encoding)) {
    if (std::string packed = Gzip(response.body); !packed.empty()) {
      response.body = std::move(packed);
      response.headers.emplace_back("Content-Encoding", "gzip");
    }
  }
  if (response.body.size() >= 1024 || !request.accept_encoding.empty()) {
    response.headers.emplace_back("Vary", "Accept-Encoding");
  }
  // Built in one allocation, sized first: a worker that frees no small blocks keeps none in
  // glibc's per-thread cache (base/task_pool.h says why that matters here).
  std::string head;
  head.reserve(256 + response.content_type.size() + response.body.size() +
               64 * response.headers.size());
  head.append("HTTP/1.1 ").append(std::to_string(response.status)).append(" ");
  head.append(Reason(response.status)).append("\r\nContent-Type: ").append(response.content_type);
  head.append("\r\nContent-Length: ").append(std::to_string(response.body.size()));
  head.append("\r\nCache-Control: no-store\r\nConnection: close\r\n");
  for (const auto& [name, value] : response.headers) {
    head.append(name).append(": ").append(value).append("\r\n");
  }
  head.append("\r\n");
  // One write: headers and body in separate segments would meet Nagle's algorithm and the
  // client's delayed ACK, delaying every keep-alive request by a delayed-ACK timer.
  if (request.method != "HEAD") head += response.body;
  mg_write(conn, head.data(), head.size());
  return static_cast<int>(response.status);
}

void* HttpServer::OnInitThread(const mg_context* ctx, int thread_type) {
  constexpr int kWorker = 1;  // civetweb's thread_type of a worker
  if (thread_type == kWorker) static_cast<HttpServer*>(mg_get_user_data(ctx))->gate_->Enter();
  return nullptr;
}

int HttpServer::OnInitConnection(const mg_connection*, void**) {
  WorkerGate::TakenHere();
  return 0;
}

void HttpServer::OnConnectionClosed(const mg_connection* conn) {
  WorkerGate::EndedHere();
  auto* self = static_cast<HttpServer*>(mg_get_user_data(mg_get_context(conn)));
  // No request info when no request was read (a TLS handshake that failed).
  if (const mg_request_info* info = mg_get_request_info(conn)) {
    self->connections_->Closed(ConnectionSource(info->remote_addr), info->remote_port);
  } else if (tls_peer.second >= 0) {
    self->connections_->Closed(ConnectionSource(tls_peer.first), tls_peer.second);
  }
  tls_peer = {"", -1};
}

int HttpServer::OnInitTls(void* ssl_ctx, void* user_data) {
  WorkerGate::WatchHandshakes(ssl_ctx);
#if OVN_RAFT_TLS
  auto* ctx = static_cast<SSL_CTX*>(ssl_ctx);
  if (SSL_CTX_get_info_callback(ctx) != &OnHandshake) {
    gate_handshakes = SSL_CTX_get_info_callback(ctx);
    SSL_CTX_set_info_callback(ctx, &OnHandshake);
  }
#endif
  return static_cast<HttpServer*>(user_data)->tls_->Configure(ssl_ctx);
}

// civetweb has no way to be given a listening socket: it listens on loopback ports of its own
// choosing, and each of its sockets is then replaced, descriptor number kept, by a passed one.
// This runs after civetweb listens and before its accepting thread starts, so that thread only
// ever polls the passed sockets.
void HttpServer::OnInitContext(const mg_context* ctx) {
  auto* self = static_cast<HttpServer*>(mg_get_user_data(ctx));
  if (!self->inherited_.empty()) self->adopt_error_ = self->AdoptInherited(ctx);
  std::vector<std::uint16_t> ports;
  for (const auto& socket : self->inherited_) ports.push_back(socket.port);
  if (self->inherited_.empty()) {
    mg_server_port bound[16];
    const int n = mg_get_server_ports(ctx, 16, bound);
    for (int i = 0; i < n; ++i) ports.push_back(static_cast<std::uint16_t>(bound[i].port));
  }
  self->accept_filter_ = [self](int fd, const sockaddr_storage& peer) {
    return self->Admit(fd, peer);
  };
  self->registration_ =
      std::make_unique<AcceptFilterRegistration>(std::move(ports), &self->accept_filter_);
}

std::optional<SetupError> HttpServer::AdoptInherited(const mg_context* ctx) {
  std::vector<mg_server_port> bound(inherited_.size() + 1);
  const int n = mg_get_server_ports(ctx, static_cast<int>(bound.size()), bound.data());
  if (n != static_cast<int>(inherited_.size())) {
    return SetupError{"civetweb listens on " + std::to_string(n) + " ports, not the " +
                      std::to_string(inherited_.size()) + " sockets systemd passed"};
  }
  for (std::size_t i = 0; i < inherited_.size(); ++i) {
    const int own = LoopbackListener(static_cast<std::uint16_t>(bound[i].port));
    if (own < 0 || dup2(inherited_[i].fd, own) < 0) {
      return SetupError{"cannot serve the socket systemd passed (" + inherited_[i].address +
                        "): civetweb's own listening socket on 127.0.0.1:" +
                        std::to_string(bound[i].port) + " was not found to replace"};
    }
    close(inherited_[i].fd);
    fcntl(own, F_SETFD, FD_CLOEXEC);
    // civetweb accepts on each socket poll() found ready. A passed socket may also be accepted
    // on elsewhere (another process it was passed to): a blocking accept() would then hold
    // civetweb's accepting thread, and mg_stop with it, until the next connection.
    fcntl(own, F_SETFL, fcntl(own, F_GETFL) | O_NONBLOCK);
    inherited_[i].fd = own;
  }
  return std::nullopt;
}

std::optional<SetupError> HttpServer::Start(const std::vector<ListenAddress>& addresses,
                                            const HttpServerOptions& options) {
  tls_ = options.tls;
  mg_init_library(tls_ != nullptr ? 2 : 0);
  // Debian 12's libcivetweb is built without IPv6: say so, rather than civetweb's "invalid
  // port spec".
  const bool has_ipv6 = mg_check_feature(8) != 0;
  inherited_ = options.inherited;
  auto listeners = CivetwebListeners(addresses, inherited_, tls_ != nullptr, has_ipv6);
  if (!listeners) return listeners.error();
  if (tls_ != nullptr && mg_check_feature(2) == 0) {
    return SetupError{"this build's civetweb has no TLS (mg_check_feature(2) is 0)"};
  }
  gate_ = std::make_unique<WorkerGate>(options.threads, kCoreWorkers);
  connections_ = std::make_unique<SourceConnections>(
      options.connections_per_source > 0 ? options.connections_per_source
                                         : SourceConnections::LimitFor(options.threads));
  allowed_sources_ = options.allowed_sources;
  const auto queue_depth = ConnectionQueueDepth(options.threads);
  if (!queue_depth) return queue_depth.error();
  const std::string thread_count = std::to_string(options.threads);
  const std::string queue = std::to_string(queue_depth.value());
  // The deadline to receive a request: a connection that sends nothing useful frees its
  // worker within it.
  const std::string timeout = std::to_string(options.request_timeout.count());
  const std::string acl = AccessControlList(options.allowed_sources, has_ipv6);
  // One request per connection: civetweb gives a connection a worker for its whole life, so
  // as many idle keep-alive connections as workers would hold them all while real scrapes
  // waited. A scraper that would keep its connection (Prometheus does) pays a TCP handshake
  // per scrape instead, which is cheap next to a scrape.
  // No linger_timeout_ms: 0 sets SO_LINGER {1, 0}, so every close the server started would
  // reset the connection and discard bytes not yet sent (pages cut short). Without it the
  // kernel finishes sending after close.
  // The kernel's queue of connections not yet accepted holds as many as it allows
  // (net.core.somaxconn), not civetweb's 200: a source whose connections are shed
  // (source_connections.h) opens new ones as fast as they close, and a full queue drops
  // everyone's, the scraper's included, to come back after a SYN retry (a second or more).
  std::vector<const char*> civet_options{"listening_ports",    listeners.value().ports.c_str(),
                                         "num_threads",        thread_count.c_str(),
                                         "request_timeout_ms", timeout.c_str(),
                                         "enable_keep_alive",  "no",
                                         "connection_queue",   queue.c_str(),
                                         "listen_backlog",     "4096"};
  if (!acl.empty()) {
    civet_options.push_back("access_control_list");
    civet_options.push_back(acl.c_str());
  }
  civet_options.push_back(nullptr);
  return Launch(civet_options.data(), listeners.value().specs);
}

std::optional<SetupError> HttpServer::Launch(const char** civet_options, const std::string& specs) {
  mg_callbacks callbacks{};
  callbacks.begin_request = &HttpServer::OnRequest;
  callbacks.init_thread = &HttpServer::OnInitThread;
  callbacks.init_connection = &HttpServer::OnInitConnection;
  callbacks.connection_closed = &HttpServer::OnConnectionClosed;
  callbacks.log_message = &OnLog;
  if (tls_ != nullptr) callbacks.init_ssl = &HttpServer::OnInitTls;
  callbacks.init_context = &HttpServer::OnInitContext;
  adopt_error_.reset();
  ctx_ = mg_start(&callbacks, this, civet_options);
  if (!ctx_) {
    registration_.reset();
    return SetupError{"cannot listen on " + specs};
  }
  if (adopt_error_) {
    Stop();
    return adopt_error_;
  }
  if (!inherited_.empty()) {
    port_ = inherited_.front().port;
    return std::nullopt;
  }
  mg_server_port bound[16];
  const int n = mg_get_server_ports(ctx_, 16, bound);
  port_ = n > 0 ? bound[0].port : 0;
  return std::nullopt;
}

int HttpServer::Drain(std::chrono::milliseconds grace) {
  draining_ = true;
  const auto deadline = std::chrono::steady_clock::now() + grace;
  while (active_ > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const int left = active_;
  Stop();
  return left;
}

void HttpServer::Stop() {
  if (gate_) gate_->Open();
  if (ctx_) mg_stop(ctx_);
  ctx_ = nullptr;
  registration_.reset();  // civetweb's accepting thread has ended
}

HttpServer::HttpServer(Handler handler) : handler_(std::move(handler)) {}

HttpServer::~HttpServer() { Stop(); }

}  // namespace ovn_raft
