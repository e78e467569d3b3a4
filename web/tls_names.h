#pragma once

// exporter-toolkit's TLS vocabulary (Go's crypto/tls names) translated to OpenSSL's. Pure, so
// that a web config is checked the same way by every build, with or without TLS.

#include <optional>
#include <string>

namespace ovn_raft {

// "TLS12" -> 0x0303 (TLS1_2_VERSION); TLS10 and TLS11 are refused: OpenSSL 3's default
// security level turns them off, so honouring them would be a lie.
std::optional<int> TlsVersionNumber(const std::string& go_name);
// "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256" -> "ECDHE-RSA-AES128-GCM-SHA256" (TLS 1.2 suites;
// Go does not let TLS 1.3's be chosen either).
std::optional<std::string> OpenSslCipher(const std::string& go_name);
// "X25519" -> "X25519", "CurveP256" -> "P-256".
std::optional<std::string> OpenSslGroup(const std::string& go_name);

}  // namespace ovn_raft
