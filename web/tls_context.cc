#include "web/tls_context.h"

#if OVN_RAFT_TLS
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <optional>
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

// SHA-256 of `text`, as bytes.
std::string Digest(const std::string& text) {
  unsigned char d[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), d);
  return std::string(reinterpret_cast<const char*>(d), sizeof(d));
}

// Whether `cert` carries one of `allowed` as a DNS, e-mail, IP or URI SAN, compared exactly.
bool HasAllowedSan(X509* cert, const std::vector<std::string>& allowed) {
  auto* names =
      static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
  if (names == nullptr) return false;
  bool found = false;
  for (int i = 0; i < sk_GENERAL_NAME_num(names) && !found; ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(names, i);
    std::string value;
    if (name->type == GEN_DNS || name->type == GEN_EMAIL || name->type == GEN_URI) {
      const ASN1_IA5STRING* text = name->d.ia5;
      value.assign(reinterpret_cast<const char*>(ASN1_STRING_get0_data(text)),
                   static_cast<std::size_t>(ASN1_STRING_length(text)));
    } else if (name->type == GEN_IPADD) {
      value = GoIpString(ASN1_STRING_get0_data(name->d.ip),
                         static_cast<std::size_t>(ASN1_STRING_length(name->d.ip)));
    } else {
      continue;
    }
    found = std::find(allowed.begin(), allowed.end(), value) != allowed.end();
  }
  GENERAL_NAMES_free(names);
  return found;
}

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
  // Every session is made under, and resumed only under, the same one (see SessionContext).
  unsigned char session_context[SHA256_DIGEST_LENGTH] = {};

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

// The settings one connection was given when its ClientHello arrived, held by the SSL itself
// (ex_data) so that the callbacks later in its handshake see the same ones, whatever a reload
// swaps in meanwhile.
void FreeHeldSettings(void*, void* held, CRYPTO_EX_DATA*, int, long, void*) {
  delete static_cast<std::shared_ptr<const TlsSettings>*>(held);
}

int SettingsIndex() {
  static const int index = SSL_get_ex_new_index(0, nullptr, nullptr, nullptr, &FreeHeldSettings);
  return index;
}

void HoldSettings(SSL* ssl, const std::shared_ptr<const TlsSettings>& settings) {
  auto* held =
      static_cast<std::shared_ptr<const TlsSettings>*>(SSL_get_ex_data(ssl, SettingsIndex()));
  if (held != nullptr) {
    *held = settings;  // a second ClientHello, after a HelloRetryRequest
  } else {
    SSL_set_ex_data(ssl, SettingsIndex(), new std::shared_ptr<const TlsSettings>(settings));
  }
}

const TlsSettings* SettingsOf(const SSL* ssl) {
  const auto* held =
      static_cast<const std::shared_ptr<const TlsSettings>*>(SSL_get_ex_data(ssl, SettingsIndex()));
  return held != nullptr ? held->get() : nullptr;
}

// client_allowed_sans on a full handshake: the chain verified, its leaf must carry one.
int VerifyAllowedSans(int ok, X509_STORE_CTX* store) {
  if (ok != 1 || X509_STORE_CTX_get_error_depth(store) != 0) return ok;
  const auto* ssl = static_cast<const SSL*>(
      X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()));
  const TlsSettings* s = ssl != nullptr ? SettingsOf(ssl) : nullptr;
  if (s == nullptr) return 0;
  if (s->config.client_allowed_sans.empty() ||
      HasAllowedSan(X509_STORE_CTX_get_current_cert(store), s->config.client_allowed_sans)) {
    return 1;
  }
  X509_STORE_CTX_set_error(store, X509_V_ERR_APPLICATION_VERIFICATION);
  return 0;
}

// What a session may be resumed under: the client certificate policy and the content (not
// the paths) of the certificate and chain, and of the client CAs. The certificate names its
// key, so a new key comes with a new certificate. A session made under other files or another
// policy is never resumed: the client makes a full handshake, checked against what is there now.
void SessionContext(const TlsServerConfig& c, const std::string& cert_text,
                    const std::string& ca_text, unsigned char* out) {
  std::string text = "ovn-raft-exporter session\n" + c.client_auth_type + "\n" + Digest(cert_text) +
                     Digest(ca_text);
  for (const auto& san : c.client_allowed_sans) text += Digest(san);
  const std::string d = Digest(text);
  std::memcpy(out, d.data(), d.size());
}

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

  std::string ca_content;
  if (!config.client_ca_file.empty()) {
    const auto ca_text = ReadBoundedFile(config.client_ca_file, kMaxTlsFileBytes, "client_ca_file");
    if (!ca_text) return R::Failure(ca_text.error());
    ca_content = ca_text.value();
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
    if (!config.client_allowed_sans.empty()) s->verify_callback = &VerifyAllowedSans;
  }
  SessionContext(config, cert_text.value(), ca_content, s->session_context);
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
// context. `target` is an SSL_CTX or an SSL.
template <typename Target>
bool SetSessionIdContext(const TlsSettings& s, Target* target) {
  static_assert(sizeof(s.session_context) <= SSL_MAX_SID_CTX_LENGTH);
  if constexpr (std::is_same_v<Target, SSL_CTX>) {
    return SSL_CTX_set_session_id_context(target, s.session_context, sizeof(s.session_context)) ==
           1;
  } else {
    return SSL_set_session_id_context(target, s.session_context, sizeof(s.session_context)) == 1;
  }
}

// Whether a full handshake under `s` now would accept the client certificate `session` was made
// with: a resumption skips the certificate, so it is checked here, against the client CAs and
// the clock of now. Only the leaf is kept in a session: a client whose chain needs the
// intermediates it sent makes a full handshake instead.
bool FullHandshakeWouldAccept(const TlsSettings& s, const SSL* ssl, SSL_SESSION* session) {
  X509* peer = SSL_SESSION_get0_peer(session);
  if (peer == nullptr) return (s.verify_mode & SSL_VERIFY_FAIL_IF_NO_PEER_CERT) == 0;
  if (s.ca_store != nullptr) {
    X509_STORE_CTX* store = X509_STORE_CTX_new();
    bool ok = store != nullptr && X509_STORE_CTX_init(store, s.ca_store, peer, nullptr) == 1 &&
              X509_STORE_CTX_set_default(store, "ssl_client") == 1;
    if (ok) {
      X509_VERIFY_PARAM_set_auth_level(X509_STORE_CTX_get0_param(store),
                                       SSL_get_security_level(ssl));
      ok = X509_verify_cert(store) == 1;
    }
    X509_STORE_CTX_free(store);
    ERR_clear_error();
    if (!ok) return false;
  }
  return s.config.client_allowed_sans.empty() || HasAllowedSan(peer, s.config.client_allowed_sans);
}

// A session ticket, decrypted (TLS 1.2 tickets and TLS 1.3 pre-shared keys alike): resumed only
// when a full handshake would accept its client certificate now. Otherwise the client makes a
// full handshake, and gets a new ticket if that succeeds.
SSL_TICKET_RETURN OnTicketDecrypted(SSL* ssl, SSL_SESSION* session, const unsigned char*, size_t,
                                    SSL_TICKET_STATUS status, void*) {
  if (status == SSL_TICKET_FATAL_ERR_MALLOC || status == SSL_TICKET_FATAL_ERR_OTHER) {
    return SSL_TICKET_RETURN_ABORT;
  }
  if (status != SSL_TICKET_SUCCESS && status != SSL_TICKET_SUCCESS_RENEW) {
    return status == SSL_TICKET_NONE ? SSL_TICKET_RETURN_IGNORE : SSL_TICKET_RETURN_IGNORE_RENEW;
  }
  const TlsSettings* s = SettingsOf(ssl);
  if (s == nullptr || !FullHandshakeWouldAccept(*s, ssl, session)) {
    return SSL_TICKET_RETURN_IGNORE_RENEW;
  }
  return status == SSL_TICKET_SUCCESS ? SSL_TICKET_RETURN_USE : SSL_TICKET_RETURN_USE_RENEW;
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
  return SetSessionIdContext(s, ssl);
}

}  // namespace

struct TlsContext::State {
  std::string web_config_file;  // "" when the configuration came from no file

  // The keys that seal session tickets: made at random, never written anywhere, replaced every
  // session lifetime (the previous key still opens the tickets it sealed, until they expire)
  // and dropped, both, whenever the settings change, so that no ticket of before a reload is
  // even opened.
  struct TicketKey {
    unsigned char name[16], cipher[32], mac[32];
    std::chrono::steady_clock::time_point made;
  };
  std::mutex keys_mu;
  TicketKey key_now{};
  std::optional<TicketKey> key_before;

  static bool NewKey(TicketKey& key) {
    key.made = std::chrono::steady_clock::now();
    return RAND_bytes(key.name, sizeof(key.name)) == 1 &&
           RAND_bytes(key.cipher, sizeof(key.cipher)) == 1 &&
           RAND_bytes(key.mac, sizeof(key.mac)) == 1;
  }
  bool DropTicketKeys() {
    const std::lock_guard<std::mutex> lock(keys_mu);
    key_before.reset();
    return NewKey(key_now);
  }

  static int OnTicketKey(SSL* ssl, unsigned char* name, unsigned char* iv, EVP_CIPHER_CTX* cipher,
                         EVP_MAC_CTX* mac, int seal) {
    auto* self = static_cast<State*>(SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), ContextIndex()));
    if (self == nullptr) return -1;
    TicketKey key;
    int found = 1;  // 1: the current key; 2: the previous one (the client gets a new ticket)
    {
      const std::lock_guard<std::mutex> lock(self->keys_mu);
      if (seal) {
        if (std::chrono::steady_clock::now() - self->key_now.made >= TlsContext::kSessionLifetime) {
          self->key_before = self->key_now;
          if (!NewKey(self->key_now)) return -1;
        }
        key = self->key_now;
      } else if (std::memcmp(name, self->key_now.name, sizeof(key.name)) == 0) {
        key = self->key_now;
      } else if (self->key_before &&
                 std::memcmp(name, self->key_before->name, sizeof(key.name)) == 0) {
        key = *self->key_before;
        found = 2;
      } else {
        return 0;  // sealed before a reload or long ago: a full handshake
      }
    }
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY, key.mac, sizeof(key.mac)),
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, const_cast<char*>("SHA256"), 0),
        OSSL_PARAM_construct_end()};
    if (seal) {
      std::memcpy(name, key.name, sizeof(key.name));
      if (RAND_bytes(iv, EVP_CIPHER_get_iv_length(EVP_aes_256_cbc())) != 1 ||
          EVP_EncryptInit_ex(cipher, EVP_aes_256_cbc(), nullptr, key.cipher, iv) != 1 ||
          EVP_MAC_CTX_set_params(mac, params) != 1) {
        return -1;
      }
      return 1;
    }
    if (EVP_DecryptInit_ex(cipher, EVP_aes_256_cbc(), nullptr, key.cipher, iv) != 1 ||
        EVP_MAC_CTX_set_params(mac, params) != 1) {
      return -1;
    }
    return found;
  }

  static int ContextIndex() {
    static const int index = SSL_CTX_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
    return index;
  }

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

  // A tls_server_config the web config gave that could not be built when it came, most often
  // because a file it names is not there yet (a ConfigMap and a Secret update apart, as
  // Kubernetes does): tried again whenever its files change, until it builds, rather than
  // falling back to the files of the configuration it replaces. Only the reloader touches it.
  std::optional<TlsServerConfig> pending;

  // Whether `fresh` serves exactly what `now` does: the same configuration, certificate (which
  // names its key) and client CAs.
  static bool Same(const TlsSettings& fresh, const TlsSettings& now) {
    return fresh.config == now.config && std::memcmp(fresh.session_context, now.session_context,
                                                     sizeof(fresh.session_context)) == 0;
  }

  void Reload() {
    const auto now = Current();
    // What was asked last: a pending configuration, else the one served.
    TlsServerConfig wanted = pending ? *pending : now->config;
    bool config_changed = false;  // the web config gave another tls_server_config just now
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
            config_changed = !(*web.value().tls == wanted);
            wanted = *web.value().tls;
            if (wanted == now->config) pending.reset();
          }
        }
      }
    }
    const bool files_changed = !(StampOf(wanted.cert_file) == cert_stamp) ||
                               !(StampOf(wanted.key_file) == key_stamp) ||
                               !(StampOf(wanted.client_ca_file) == ca_stamp);
    if (!config_changed && !files_changed) return;
    const bool new_config = !(wanted == now->config);
    const bool was_pending = pending.has_value() && !config_changed;
    // Stamped before reading: a change while reading is seen next time, and a file that stays
    // bad is said once per change, not once a second.
    StampFiles(wanted);
    auto fresh = BuildSettings(wanted);
    if (!fresh) {
      // Mid-rotation (a new certificate beside the old key), a file not there yet, or broken:
      // keep serving the last good settings, and say why. A new configuration waits.
      if (new_config) pending = wanted;
      Log(LogLevel::kWarn,
          new_config ? "TLS configuration not applied yet; the last good one stays until its "
                       "files can be read"
                     : "TLS certificate not reloaded; the last good one stays",
          {{"error", fresh.error()}});
      return;
    }
    pending.reset();
    if (Same(*fresh.value(), *now)) return;  // files rewritten with what they held
    WarnIfExpired(*fresh.value());
    {
      const std::lock_guard<std::mutex> lock(mu);
      current = std::move(fresh).value();
    }
    // Tickets sealed before are not even opened now (the new session context would refuse
    // them anyway).
    if (!DropTicketKeys()) {
      Log(LogLevel::kError, "TLS session ticket keys not replaced", {{"error", OpenSslError()}});
    }
    Log(LogLevel::kInfo,
        was_pending  ? "TLS configuration applied (its files can now be read)"
        : new_config ? "TLS configuration reloaded (tls_server_config changed)"
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
    HoldSettings(ssl, settings);
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
  if (!state->DropTicketKeys()) return SetupError{"TLS session ticket keys: " + OpenSslError()};
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
  if (!SetSessionIdContext(s, ctx)) return fail("session id context");
  SSL_CTX_set_verify(ctx, s.verify_mode, s.verify_callback);
  SSL_CTX_set_client_hello_cb(ctx, &State::OnClientHello, state_.get());
  // Sessions live only in tickets, sealed with the keys above and checked when they come back
  // (OnTicketDecrypted): no server-side cache, whose session IDs would resume with no check.
  // A client without ticket support makes a full handshake each time.
  SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
  SSL_CTX_clear_options(ctx, SSL_OP_NO_TICKET);
  SSL_CTX_set_timeout(ctx, static_cast<long>(kSessionLifetime.count()));
  if (SSL_CTX_set_ex_data(ctx, State::ContextIndex(), state_.get()) != 1 ||
      SSL_CTX_set_tlsext_ticket_key_evp_cb(ctx, &State::OnTicketKey) != 1 ||
      SSL_CTX_set_session_ticket_cb(ctx, nullptr, &OnTicketDecrypted, nullptr) != 1) {
    return fail("session tickets");
  }
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
