#pragma once

// exporter-toolkit's TLS vocabulary (Go's crypto/tls names) translated to OpenSSL's. Pure, so
// that a web config is checked the same way by every build, with or without TLS.

#include <cstddef>
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

// An IP address of `size` bytes (4 or 16) as Go's net.IP.String() spells it, which is what
// exporter-toolkit compares client_allowed_sans with: dotted IPv4 (also for an IPv4-mapped
// IPv6 address), else lowercase hex groups, the first longest run of two or more zero groups
// written "::". "?" for another size.
std::string GoIpString(const unsigned char* bytes, std::size_t size);

}  // namespace ovn_raft
