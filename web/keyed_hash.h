#pragma once

// A keyed hash of a secret, under a key drawn at random once per process: what the password
// cache keeps instead of the password, so that neither a memory dump nor a timing difference
// in a lookup says anything about it without the key. SipHash-2-4 twice, under two keys.

#include <array>
#include <cstdint>
#include <string_view>

namespace ovn_raft {

using KeyedDigest = std::array<std::uint64_t, 2>;

KeyedDigest KeyedHash(std::string_view secret);

// SipHash-2-4 (Aumasson and Bernstein), 64-bit output. Pure; exposed for its test vectors.
std::uint64_t SipHash24(std::uint64_t k0, std::uint64_t k1, std::string_view in);

}  // namespace ovn_raft
