#pragma once

// The exporter's TLS server side, configured from the web config's tls_server_config onto
// civetweb's OpenSSL context (its init_ssl callback) and onto every connection as its
// ClientHello arrives. A thread of its own looks at the files once a second: a certificate,
// key or client CA that changed (cert-manager renews them in place) is read (bounded, without
// blocking: bounded_file.h) and checked, and a changed tls_server_config in the web config
// file is applied, all outside any handshake; the new settings are then swapped in. What does
// not load keeps the last good settings and is logged. A TLS session never outlives the files
// it was made under, nor grants what a full handshake would refuse. Only in builds whose civetweb
// links OpenSSL 3 itself (-DOVN_RAFT_CIVETWEB=source); elsewhere Create says so.

#include <chrono>
#include <memory>
#include <string>

#include "base/result.h"
#include "web/setup_error.h"
#include "web/web_config.h"

namespace ovn_raft {

class TlsContext {
 public:
  // How long a TLS session may be resumed, and how often the keys that seal its tickets are
  // replaced. Each scrape is a new connection (one request per connection): a scraper every 15
  // to 60 s resumes its session for several scrapes, and a session, with its TLS 1.2 master
  // secret, lives minutes, not the hours a client would ask for. Sessions are kept only in
  // tickets, and a resumption is refused when a full handshake would be (docs/security.md).
  static constexpr std::chrono::seconds kSessionLifetime{300};

  // Whether this build can serve TLS.
  static bool Available();
  // Loads and checks the files now: a server that would fail every handshake does not start.
  // `web_config_file`, when given, is where `config` came from: its tls_server_config is
  // applied again when it changes.
  static Result<std::unique_ptr<TlsContext>, SetupError> Create(
      const TlsServerConfig& config, const std::string& web_config_file = "");
  ~TlsContext();
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;

  // Configures civetweb's SSL_CTX (passed as void* to keep OpenSSL out of this header):
  // 1 on success, -1 on failure, as civetweb's init_ssl wants.
  int Configure(void* ssl_ctx);

  struct State;  // OpenSSL objects and the reloader; defined in tls_context.cc

 private:
  explicit TlsContext(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace ovn_raft
