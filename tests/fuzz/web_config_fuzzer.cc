// libFuzzer target: the web config file's parser (exporter-toolkit's YAML subset), on any
// bytes. What it accepts must be self-consistent: every user has a bcrypt hash within the
// accepted costs, TLS settings name both a certificate and a key, response headers are
// exporter-toolkit's, without a line break, and a rate limit admits something.
#include <cstddef>
#include <cstdint>
#include <string>

#include "web/web_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto parsed = ovn_raft::ParseWebConfig(text);
  if (!parsed) {
    if (parsed.error().message.empty()) __builtin_trap();  // an error always says why
    return 0;
  }
  for (const auto& [user, hash] : parsed.value().basic_auth_users) {
    if (hash.size() != 60 || hash[0] != '$' || hash[1] != '2') __builtin_trap();
    const unsigned cost = static_cast<unsigned>((hash[4] - '0') * 10 + (hash[5] - '0'));
    if (cost < ovn_raft::kMinBcryptCost || cost > ovn_raft::kMaxBcryptCost) __builtin_trap();
  }
  if (const auto& tls = parsed.value().tls) {
    if (tls->cert_file.empty() || tls->key_file.empty()) __builtin_trap();
    if (!tls->client_allowed_sans.empty() &&
        tls->client_auth_type != "RequireAndVerifyClientCert") {
      __builtin_trap();
    }
  }
  // Response headers: only exporter-toolkit's, and no byte that would end a header line.
  for (const auto& [name, value] : parsed.value().headers) {
    bool known = false;
    for (const auto& h : ovn_raft::ConfigurableHeaders()) known = known || name == h.name;
    if (!known) __builtin_trap();
    for (const char c : value) {
      if (c == '\r' || c == '\n' || c == '\0') __builtin_trap();
    }
  }
  const auto& limit = parsed.value().rate_limit;
  if (limit.interval.count() < 0 || limit.burst < 0) __builtin_trap();
  if (limit.interval.count() > 0 && limit.burst == 0) __builtin_trap();
  return 0;
}
