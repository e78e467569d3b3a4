#include "web/tls_context.h"

#if OVN_RAFT_TLS
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/stat.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <type_traits>

#include "base/log.h"
#include "web/bounded_file.h"
#include "web/tls_names.h"
#endif

namespace ovn_raft {

#if OVN_RAFT_TLS
namespace {

// The largest certificate (with its chain), key or client CA bundle read: a system CA bundle
// is a few hundred KiB.
constexpr std::size_t kMaxTlsFileBytes = 1u << 20;

// OpenSSL 3's groups when none are configured, for a reload that drops curve_preferences.
constexpr char kDefaultGroups[] = "x25519:secp256r1:x448:secp521r1:secp384r1";

std::string OpenSslError() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "unknown error";
  char text[256];
  ERR_error_string_n(code, text, sizeof(text));
  return text;
}

// A memory BIO over `text` (which must outlive it).
BIO* MemoryBio(const std::string& text) {
  return BIO_new_mem_buf(text.data(), static_cast<int>(text.size()));
}

// What identifies a file's content without reading it: a Secret volume swaps a symlink, so the
// inode changes; an in-place write changes the time or size. stat never blocks, even on a FIFO.
struct Stamp {
  ino_t inode = 0;
  timespec mtime{};
  off_t size = 0;
  bool operator==(const Stamp& o) const {
    return inode == o.inode && mtime.tv_sec == o.mtime.tv_sec && mtime.tv_nsec == o.mtime.tv_nsec &&
           size == o.size;
  }
};

Stamp StampOf(const std::string& path) {
  struct stat st {};
  if (path.empty() || stat(path.c_str(), &st) != 0) return {};
  return {st.st_ino, st.st_mtim, st.st_size};
}

int AcceptAnyCertificate(int, X509_STORE_CTX*) { return 1; }

}  // namespace

// Everything a handshake takes from the configuration, built whole (files read and parsed)
// before any handshake sees it, then never changed: a reload builds a new one and swaps it in.
struct TlsSettings {
  TlsServerConfig config;
  std::string cipher_list, groups_list;  // OpenSSL's spellings; "" for OpenSSL's defaults
  X509* cert = nullptr;
  STACK_OF(X509) * chain = nullptr;
  EVP_PKEY* key = nullptr;
  X509_STORE* ca_store = nullptr;            // client CAs, when client_ca_file is given
  STACK_OF(X509_NAME) * ca_names = nullptr;  // their names, sent in the request
  int verify_mode = SSL_VERIFY_NONE;
  SSL_verify_cb verify_callback = nullptr;

  TlsSettings() = default;
  TlsSettings(const TlsSettings&) = delete;
  TlsSettings& operator=(const TlsSettings&) = delete;
  ~TlsSettings() {
    X509_free(cert);
    sk_X509_pop_free(chain, X509_free);
    EVP_PKEY_free(key);
    X509_STORE_free(ca_store);
    sk_X509_NAME_pop_free(ca_names, X509_NAME_free);
  }
};

namespace {

// The certificate (and chain), key and client CAs `config` names, read and checked, or why not.
Result<std::shared_ptr<const TlsSettings>, std::string> BuildSettings(
    const TlsServerConfig& config) {
  using R = Result<std::shared_ptr<const TlsSettings>, std::string>;
  auto s = std::make_shared<TlsSettings>();
  s->config = config;
  for (const auto& name : config.cipher_suites)
    s->cipher_list += (s->cipher_list.empty() ? "" : ":") + *OpenSslCipher(name);
  for (const auto& name : config.curve_preferences)
    s->groups_list += (s->groups_list.empty() ? "" : ":") + *OpenSslGroup(name);

  const auto cert_text = ReadBoundedFile(config.cert_file, kMaxTlsFileBytes, "cert_file");
  if (!cert_text) return R::Failure(cert_text.error());
  BIO* in = MemoryBio(cert_text.value());
  s->cert = PEM_read_bio_X509(in, nullptr, nullptr, nullptr);
  s->chain = sk_X509_new_null();
  while (X509* extra = PEM_read_bio_X509(in, nullptr, nullptr, nullptr)) {
    sk_X509_push(s->chain, extra);
  }
  ERR_clear_error();  // the end of the text reads as an error
  BIO_free(in);
  if (s->cert == nullptr) {
    return R::Failure("cert_file " + config.cert_file + " holds no PEM certificate");
  }

  const auto key_text = ReadBoundedFile(config.key_file, kMaxTlsFileBytes, "key_file");
  if (!key_text) return R::Failure(key_text.error());
  in = MemoryBio(key_text.value());
  s->key = PEM_read_bio_PrivateKey(in, nullptr, nullptr, nullptr);
  BIO_free(in);
  if (s->key == nullptr) {
    return R::Failure("key_file " + config.key_file +
                      " holds no PEM private key: " + OpenSslError());
  }
  if (X509_check_private_key(s->cert, s->key) != 1) {
    ERR_clear_error();
    return R::Failure("key_file " + config.key_file + " is not the key of cert_file " +
                      config.cert_file);
  }

  if (!config.client_ca_file.empty()) {
    const auto ca_text = ReadBoundedFile(config.client_ca_file, kMaxTlsFileBytes, "client_ca_file");
    if (!ca_text) return R::Failure(ca_text.error());
    s->ca_store = X509_STORE_new();
    s->ca_names = sk_X509_NAME_new_null();
    in = MemoryBio(ca_text.value());
    while (X509* ca = PEM_read_bio_X509(in, nullptr, nullptr, nullptr)) {
      X509_STORE_add_cert(s->ca_store, ca);
      sk_X509_NAME_push(s->ca_names, X509_NAME_dup(X509_get_subject_name(ca)));
      X509_free(ca);
    }
    ERR_clear_error();
    BIO_free(in);
    if (sk_X509_NAME_num(s->ca_names) == 0) {
      return R::Failure("client_ca_file " + config.client_ca_file + " holds no PEM certificate");
    }
  }

  const std::string& type = config.client_auth_type;
  if (type == "RequestClientCert") {
    s->verify_mode = SSL_VERIFY_PEER;
    s->verify_callback = &AcceptAnyCertificate;
  } else if (type == "RequireAnyClientCert") {
    s->verify_mode = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
    s->verify_callback = &AcceptAnyCertificate;
  } else if (type == "VerifyClientCertIfGiven") {
    s->verify_mode = SSL_VERIFY_PEER;
  } else if (type == "RequireAndVerifyClientCert") {
    s->verify_mode = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
  }
  return std::shared_ptr<const TlsSettings>(std::move(s));
}

// Served anyway (cert-manager renews in place; refusing to start would only add an outage),
// but said: every verifying client will refuse it.
void WarnIfExpired(const TlsSettings& s) {
  if (X509_cmp_current_time(X509_get0_notAfter(s.cert)) < 0) {
    Log(LogLevel::kWarn, "TLS certificate has expired; clients that verify will refuse it",
        {{"cert_file", s.config.cert_file}});
  }
}

// OpenSSL refuses to resume a session of a server that asks for client certificates unless a
// session ID context is set (alert 80, "session id context uninitialized"): clients that cache
// sessions would fail every other connection. civetweb sets none when init_ssl configures the
// context. It names the client certificate policy, so that a session made under one policy is
// never resumed under another. `target` is an SSL_CTX or an SSL.
template <typename Target>
bool SetSessionIdContext(const TlsServerConfig& c, Target* target) {
  const std::string policy = "ovn-raft-exporter\n" + c.client_auth_type + "\n" + c.client_ca_file;
  unsigned char id[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(policy.data()), policy.size(), id);
  static_assert(sizeof(id) <= SSL_MAX_SID_CTX_LENGTH);
  if constexpr (std::is_same_v<Target, SSL_CTX>) {
    return SSL_CTX_set_session_id_context(target, id, sizeof(id)) == 1;
  } else {
    return SSL_set_session_id_context(target, id, sizeof(id)) == 1;
  }
}

// `s` onto one connection, before its version and cipher are chosen: a reload reaches every
// handshake that starts after it, whatever civetweb's SSL_CTX was given at start.
bool ApplyToConnection(const TlsSettings& s, SSL* ssl) {
  const TlsServerConfig& c = s.config;
  if (SSL_set_min_proto_version(ssl, *TlsVersionNumber(c.min_version)) != 1 ||
      SSL_set_max_proto_version(ssl, *TlsVersionNumber(c.max_version)) != 1) {
    return false;
  }
  if (SSL_set_cipher_list(
          ssl, s.cipher_list.empty() ? OSSL_default_cipher_list() : s.cipher_list.c_str()) != 1) {
    return false;
  }
  if (SSL_set1_groups_list(ssl, s.groups_list.empty() ? kDefaultGroups : s.groups_list.c_str()) !=
      1) {
    return false;
  }
  if (c.prefer_server_cipher_suites) {
    SSL_set_options(ssl, SSL_OP_CIPHER_SERVER_PREFERENCE);
  } else {
    SSL_clear_options(ssl, SSL_OP_CIPHER_SERVER_PREFERENCE);
  }
  if (SSL_use_cert_and_key(ssl, s.cert, s.key, s.chain, 1) != 1) return false;
  if (s.ca_store != nullptr) {
    if (SSL_set1_verify_cert_store(ssl, s.ca_store) != 1) return false;
    SSL_set_client_CA_list(ssl, SSL_dup_CA_list(s.ca_names));
  }
  SSL_set_verify(ssl, s.verify_mode, s.verify_callback);
  return SetSessionIdContext(c, ssl);
}

}  // namespace

struct TlsContext::State {
  std::string web_config_file;  // "" when the configuration came from no file

  // The settings handshakes use. The lock is held only to copy or swap the pointer: nothing
  // that reads a file or parses ever runs under it.
  std::mutex mu;
  std::shared_ptr<const TlsSettings> current;

  std::shared_ptr<const TlsSettings> Current() {
    const std::lock_guard<std::mutex> lock(mu);
    return current;
  }

  // The reloader: its own thread looks at the files once a second, builds new settings when
  // one changed, and swaps them in. A handshake never waits for it.
  std::mutex stop_mu;
  std::condition_variable stop_cv;
  bool stopping = false;
  std::thread reloader;
  Stamp web_stamp, cert_stamp, key_stamp, ca_stamp;
  bool warned_removed = false;

  void StampFiles(const TlsServerConfig& c) {
    cert_stamp = StampOf(c.cert_file);
    key_stamp = StampOf(c.key_file);
    ca_stamp = StampOf(c.client_ca_file);
  }

  void Reload() {
    const auto now = Current();
    TlsServerConfig wanted = now->config;
    bool config_changed = false;
    if (!web_config_file.empty()) {
      if (const auto stamp = StampOf(web_config_file); !(stamp == web_stamp)) {
        web_stamp = stamp;
        // A file that does not load is the web config watcher's to report; TLS keeps its state.
        if (auto web = LoadWebConfig(web_config_file)) {
          if (!web.value().tls) {
            if (!warned_removed) {
              Log(LogLevel::kWarn,
                  "tls_server_config removed from the web config: TLS stays on until a restart",
                  {{"file", web_config_file}});
            }
            warned_removed = true;
          } else {
            warned_removed = false;
            config_changed = !(*web.value().tls == now->config);
            wanted = *web.value().tls;
          }
        }
      }
    }
    const bool files_changed = !(StampOf(wanted.cert_file) == cert_stamp) ||
                               !(StampOf(wanted.key_file) == key_stamp) ||
                               !(StampOf(wanted.client_ca_file) == ca_stamp);
    if (!config_changed && !files_changed) return;
    // Stamped before reading: a change while reading is seen next time, and a file that stays
    // bad is said once per change, not once a second.
    StampFiles(wanted);
    auto fresh = BuildSettings(wanted);
    if (!fresh) {
      // Mid-rotation (a new certificate beside the old key) or broken: keep serving the last
      // good settings, and say why.
      Log(LogLevel::kWarn,
          config_changed ? "TLS configuration not reloaded; the last good one stays"
                         : "TLS certificate not reloaded; the last good one stays",
          {{"error", fresh.error()}});
      return;
    }
    WarnIfExpired(*fresh.value());
    {
      const std::lock_guard<std::mutex> lock(mu);
      current = std::move(fresh).value();
    }
    Log(LogLevel::kInfo,
        config_changed ? "TLS configuration reloaded (tls_server_config changed)"
                       : "TLS certificate reloaded",
        {{"cert_file", wanted.cert_file}});
  }

  void Run() {
    std::unique_lock<std::mutex> lock(stop_mu);
    while (!stop_cv.wait_for(lock, std::chrono::seconds(1), [this] { return stopping; })) {
      lock.unlock();
      Reload();
      lock.lock();
    }
  }

  ~State() {
    {
      const std::lock_guard<std::mutex> lock(stop_mu);
      stopping = true;
    }
    stop_cv.notify_all();
    if (reloader.joinable()) reloader.join();
  }

  static int OnClientHello(SSL* ssl, int* alert, void* arg) {
    const auto settings = static_cast<State*>(arg)->Current();
    if (!ApplyToConnection(*settings, ssl)) {
      ERR_clear_error();
      *alert = SSL_AD_INTERNAL_ERROR;
      return SSL_CLIENT_HELLO_ERROR;
    }
    return SSL_CLIENT_HELLO_SUCCESS;
  }
};

bool TlsContext::Available() { return true; }

Result<std::unique_ptr<TlsContext>, SetupError> TlsContext::Create(
    const TlsServerConfig& config, const std::string& web_config_file) {
  auto state = std::make_unique<State>();
  state->web_config_file = web_config_file;
  state->web_stamp = StampOf(web_config_file);
  state->StampFiles(config);
  auto settings = BuildSettings(config);
  if (!settings) return SetupError{settings.error()};
  WarnIfExpired(*settings.value());
  state->current = std::move(settings).value();
  State* raw = state.get();
  state->reloader = std::thread([raw] { raw->Run(); });
  return std::unique_ptr<TlsContext>(new TlsContext(std::move(state)));
}

int TlsContext::Configure(void* ssl_ctx) {
  auto* ctx = static_cast<SSL_CTX*>(ssl_ctx);
  const auto settings = state_->Current();
  const TlsSettings& s = *settings;
  const TlsServerConfig& c = s.config;
  const auto fail = [](const std::string& what) {
    Log(LogLevel::kError, "cannot configure TLS", {{"error", what + ": " + OpenSslError()}});
    return -1;
  };
  // The context gets the settings of the start; every handshake then gets the current ones
  // (OnClientHello), so that a reload applies without a restart.
  if (SSL_CTX_set_min_proto_version(ctx, *TlsVersionNumber(c.min_version)) != 1 ||
      SSL_CTX_set_max_proto_version(ctx, *TlsVersionNumber(c.max_version)) != 1) {
    return fail("TLS versions");
  }
  if (!s.cipher_list.empty() && SSL_CTX_set_cipher_list(ctx, s.cipher_list.c_str()) != 1) {
    return fail("cipher_suites " + s.cipher_list);
  }
  if (!s.groups_list.empty() && SSL_CTX_set1_groups_list(ctx, s.groups_list.c_str()) != 1) {
    return fail("curve_preferences " + s.groups_list);
  }
  if (c.prefer_server_cipher_suites) {
    SSL_CTX_set_options(ctx, SSL_OP_CIPHER_SERVER_PREFERENCE);
  } else {
    SSL_CTX_clear_options(ctx, SSL_OP_CIPHER_SERVER_PREFERENCE);
  }
  if (SSL_CTX_use_cert_and_key(ctx, s.cert, s.key, s.chain, 1) != 1) {
    return fail("cert_file and key_file");
  }
  if (s.ca_store != nullptr) {
    if (SSL_CTX_set1_verify_cert_store(ctx, s.ca_store) != 1) return fail("client_ca_file");
    SSL_CTX_set_client_CA_list(ctx, SSL_dup_CA_list(s.ca_names));
  }
  if (!SetSessionIdContext(s.config, ctx)) return fail("session id context");
  SSL_CTX_set_verify(ctx, s.verify_mode, s.verify_callback);
  SSL_CTX_set_client_hello_cb(ctx, &State::OnClientHello, state_.get());
  return 1;
}

#else  // no TLS in this build

struct TlsContext::State {};

bool TlsContext::Available() { return false; }

Result<std::unique_ptr<TlsContext>, SetupError> TlsContext::Create(const TlsServerConfig&,
                                                                   const std::string&) {
  return SetupError{
      "tls_server_config: this build has no TLS. It uses the system's libcivetweb, which loads "
      "OpenSSL through the 1.1 API at run time and crashes on the first handshake with OpenSSL "
      "3. Build with -DOVN_RAFT_CIVETWEB=source (the image and scripts/test.sh do), or "
      "terminate TLS in kube-rbac-proxy"};
}

int TlsContext::Configure(void*) { return -1; }

#endif

TlsContext::TlsContext(std::unique_ptr<State> state) : state_(std::move(state)) {}
TlsContext::~TlsContext() = default;

}  // namespace ovn_raft
