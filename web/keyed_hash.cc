#include "web/keyed_hash.h"

#include <sys/random.h>

#include <chrono>
#include <cstddef>

namespace ovn_raft {
namespace {

std::uint64_t Rotl(std::uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

struct ProcessKey {
  std::uint64_t k[4];
  ProcessKey() {
    std::size_t got = 0;
    auto* bytes = reinterpret_cast<unsigned char*>(k);
    while (got < sizeof(k)) {
      const ssize_t n = getrandom(bytes + got, sizeof(k) - got, 0);
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    if (got < sizeof(k)) {
      // No getrandom (a very old kernel): still a key no client can know in advance.
      const auto now =
          static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
      const auto self = reinterpret_cast<std::uintptr_t>(this);
      for (int i = 0; i < 4; ++i) k[i] ^= SipHash24(now, self + i, "ovn-raft-exporter");
    }
  }
};

}  // namespace

std::uint64_t SipHash24(std::uint64_t k0, std::uint64_t k1, std::string_view in) {
  std::uint64_t v0 = k0 ^ 0x736f6d6570736575ULL, v1 = k1 ^ 0x646f72616e646f6dULL,
                v2 = k0 ^ 0x6c7967656e657261ULL, v3 = k1 ^ 0x7465646279746573ULL;
  const auto round = [&] {
    v0 += v1;
    v1 = Rotl(v1, 13);
    v1 ^= v0;
    v0 = Rotl(v0, 32);
    v2 += v3;
    v3 = Rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = Rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = Rotl(v1, 17);
    v1 ^= v2;
    v2 = Rotl(v2, 32);
  };
  const std::size_t whole = in.size() / 8 * 8;
  for (std::size_t i = 0; i < whole; i += 8) {
    std::uint64_t m = 0;
    for (int j = 7; j >= 0; --j) m = (m << 8) | static_cast<unsigned char>(in[i + j]);
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
  std::uint64_t b = static_cast<std::uint64_t>(in.size()) << 56;
  for (std::size_t j = in.size() - whole; j-- > 0;) {
    b |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[whole + j])) << (8 * j);
  }
  v3 ^= b;
  round();
  round();
  v0 ^= b;
  v2 ^= 0xff;
  for (int i = 0; i < 4; ++i) round();
  return v0 ^ v1 ^ v2 ^ v3;
}

KeyedDigest KeyedHash(std::string_view secret) {
  static const ProcessKey key;
  return {SipHash24(key.k[0], key.k[1], secret), SipHash24(key.k[2], key.k[3], secret)};
}

}  // namespace ovn_raft
