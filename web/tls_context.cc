#include "web/tls_context.h"

#if OVN_RAFT_TLS
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/stat.h>

#include <chrono>
#include <mutex>

#include "base/log.h"
#include "web/tls_names.h"
#endif

namespace ovn_raft {

#if OVN_RAFT_TLS
namespace {

std::string OpenSslError() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "unknown error";
  char text[256];
  ERR_error_string_n(code, text, sizeof(text));
  return text;
}

// A certificate, its chain and the key, as read from the files at one moment.
struct KeyPair {
  X509* cert = nullptr;
  STACK_OF(X509) * chain = nullptr;
  EVP_PKEY* key = nullptr;
  ~KeyPair() {
    X509_free(cert);
    sk_X509_pop_free(chain, X509_free);
    EVP_PKEY_free(key);
  }
};

// What identifies a file's content without reading it: a Secret volume swaps a symlink, so the
// inode changes; an in-place write changes the time or size.
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
  if (stat(path.c_str(), &st) != 0) return {};
  return {st.st_ino, st.st_mtim, st.st_size};
}

// The certificate (and chain) and its key, or why not.
Result<std::shared_ptr<KeyPair>, std::string> LoadPair(const std::string& cert_file,
                                                       const std::string& key_file) {
  auto pair = std::make_shared<KeyPair>();
  BIO* in = BIO_new_file(cert_file.c_str(), "r");
  if (in == nullptr) {
    return std::string("cannot read cert_file " + cert_file + ": " + OpenSslError());
  }
  pair->cert = PEM_read_bio_X509(in, nullptr, nullptr, nullptr);
  pair->chain = sk_X509_new_null();
  while (X509* extra = PEM_read_bio_X509(in, nullptr, nullptr, nullptr)) {
    sk_X509_push(pair->chain, extra);
  }
  ERR_clear_error();  // the end of the file reads as an error
  BIO_free(in);
  if (pair->cert == nullptr) {
    return std::string("cert_file " + cert_file + " holds no PEM certificate");
  }
  in = BIO_new_file(key_file.c_str(), "r");
  if (in == nullptr) {
    return std::string("cannot read key_file " + key_file + ": " + OpenSslError());
  }
  pair->key = PEM_read_bio_PrivateKey(in, nullptr, nullptr, nullptr);
  BIO_free(in);
  if (pair->key == nullptr) {
    return std::string("key_file " + key_file + " holds no PEM private key: " + OpenSslError());
  }
  if (X509_check_private_key(pair->cert, pair->key) != 1) {
    ERR_clear_error();
    return std::string("key_file " + key_file + " is not the key of cert_file " + cert_file);
  }
  return pair;
}

int AcceptAnyCertificate(int, X509_STORE_CTX*) { return 1; }

// Served anyway (cert-manager renews in place; refusing to start would only add an outage),
// but said: every verifying client will refuse it.
void WarnIfExpired(const KeyPair& pair, const std::string& cert_file) {
  if (X509_cmp_current_time(X509_get0_notAfter(pair.cert)) < 0) {
    Log(LogLevel::kWarn, "TLS certificate has expired; clients that verify will refuse it",
        {{"cert_file", cert_file}});
  }
}

}  // namespace

struct TlsContext::State {
  TlsServerConfig config;
  std::mutex mu;
  std::shared_ptr<KeyPair> pair;
  Stamp cert_stamp, key_stamp;
  std::chrono::steady_clock::time_point checked;

  // The pair to present now, re-read when its files changed (checked at most once a second).
  std::shared_ptr<KeyPair> Current() {
    const std::lock_guard<std::mutex> lock(mu);
    const auto now = std::chrono::steady_clock::now();
    if (now - checked < std::chrono::seconds(1)) return pair;
    checked = now;
    const Stamp cert = StampOf(config.cert_file), key = StampOf(config.key_file);
    if (cert == cert_stamp && key == key_stamp) return pair;
    if (auto fresh = LoadPair(config.cert_file, config.key_file)) {
      pair = std::move(fresh).value();
      Log(LogLevel::kInfo, "TLS certificate reloaded", {{"cert_file", config.cert_file}});
      WarnIfExpired(*pair, config.cert_file);
    } else {
      // Mid-rotation (a new certificate beside the old key) or broken: keep serving the last
      // good pair, and say so once per change.
      Log(LogLevel::kWarn, "TLS certificate not reloaded; the last good one stays",
          {{"error", fresh.error()}});
    }
    cert_stamp = cert;
    key_stamp = key;
    return pair;
  }

  static int OnCertificate(SSL* ssl, void* arg) {
    const auto current = static_cast<State*>(arg)->Current();
    return SSL_use_cert_and_key(ssl, current->cert, current->key, current->chain, 1) == 1 ? 1 : 0;
  }
};

bool TlsContext::Available() { return true; }

Result<std::unique_ptr<TlsContext>, SetupError> TlsContext::Create(const TlsServerConfig& config) {
  auto state = std::make_unique<State>();
  state->config = config;
  state->cert_stamp = StampOf(config.cert_file);
  state->key_stamp = StampOf(config.key_file);
  auto pair = LoadPair(config.cert_file, config.key_file);
  if (!pair) return SetupError{pair.error()};
  state->pair = std::move(pair).value();
  WarnIfExpired(*state->pair, config.cert_file);
  state->checked = std::chrono::steady_clock::now();
  if (!config.client_ca_file.empty()) {
    BIO* in = BIO_new_file(config.client_ca_file.c_str(), "r");
    X509* ca = in ? PEM_read_bio_X509(in, nullptr, nullptr, nullptr) : nullptr;
    if (in) BIO_free(in);
    if (ca == nullptr) {
      return SetupError{"client_ca_file " + config.client_ca_file +
                        " holds no PEM certificate: " + OpenSslError()};
    }
    X509_free(ca);
  }
  return std::unique_ptr<TlsContext>(new TlsContext(std::move(state)));
}

int TlsContext::Configure(void* ssl_ctx) {
  auto* ctx = static_cast<SSL_CTX*>(ssl_ctx);
  const TlsServerConfig& c = state_->config;
  const auto fail = [](const std::string& what) {
    Log(LogLevel::kError, "cannot configure TLS", {{"error", what + ": " + OpenSslError()}});
    return -1;
  };
  if (SSL_CTX_set_min_proto_version(ctx, *TlsVersionNumber(c.min_version)) != 1 ||
      SSL_CTX_set_max_proto_version(ctx, *TlsVersionNumber(c.max_version)) != 1) {
    return fail("TLS versions");
  }
  if (!c.cipher_suites.empty()) {
    std::string list;
    for (const auto& name : c.cipher_suites)
      list += (list.empty() ? "" : ":") + *OpenSslCipher(name);
    if (SSL_CTX_set_cipher_list(ctx, list.c_str()) != 1) return fail("cipher_suites " + list);
  }
  if (!c.curve_preferences.empty()) {
    std::string list;
    for (const auto& name : c.curve_preferences)
      list += (list.empty() ? "" : ":") + *OpenSslGroup(name);
    if (SSL_CTX_set1_groups_list(ctx, list.c_str()) != 1) return fail("curve_preferences " + list);
  }
  if (c.prefer_server_cipher_suites) {
    SSL_CTX_set_options(ctx, SSL_OP_CIPHER_SERVER_PREFERENCE);
  } else {
    SSL_CTX_clear_options(ctx, SSL_OP_CIPHER_SERVER_PREFERENCE);
  }
  // The certificate is chosen per handshake (OnCertificate), so that a renewed one is used.
  const auto pair = state_->Current();
  if (SSL_CTX_use_cert_and_key(ctx, pair->cert, pair->key, pair->chain, 1) != 1) {
    return fail("cert_file and key_file");
  }
  SSL_CTX_set_cert_cb(ctx, &State::OnCertificate, state_.get());
  if (!c.client_ca_file.empty()) {
    if (SSL_CTX_load_verify_locations(ctx, c.client_ca_file.c_str(), nullptr) != 1) {
      return fail("client_ca_file");
    }
    SSL_CTX_set_client_CA_list(ctx, SSL_load_client_CA_file(c.client_ca_file.c_str()));
  }
  const std::string& type = c.client_auth_type;
  if (type == "RequestClientCert") {
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, &AcceptAnyCertificate);
  } else if (type == "RequireAnyClientCert") {
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
                       &AcceptAnyCertificate);
  } else if (type == "VerifyClientCertIfGiven") {
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  } else if (type == "RequireAndVerifyClientCert") {
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
  } else {
    SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
  }
  // OpenSSL refuses to resume a session of a server that asks for client certificates unless
  // a session ID context is set (alert 80, "session id context uninitialized"): clients that
  // cache sessions would fail every other connection. civetweb sets none when init_ssl
  // configures the context. It names the client certificate policy, so that a session made
  // under one policy is never resumed under another.
  const std::string policy = "ovn-raft-exporter\n" + type + "\n" + c.client_ca_file;
  unsigned char id[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(policy.data()), policy.size(), id);
  static_assert(sizeof(id) <= SSL_MAX_SID_CTX_LENGTH);
  if (SSL_CTX_set_session_id_context(ctx, id, sizeof(id)) != 1) return fail("session id context");
  return 1;
}

#else  // no TLS in this build

struct TlsContext::State {};

bool TlsContext::Available() { return false; }

Result<std::unique_ptr<TlsContext>, SetupError> TlsContext::Create(const TlsServerConfig&) {
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
