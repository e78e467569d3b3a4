// libFuzzer target: the pure part of the HTTP request path, on what a client controls: the
// Authorization header (Basic credentials, base64), Accept-Encoding, the peer address as
// civetweb prints it (source keys for fairness) and, from the command line, allowed-source
// CIDRs. Fields are split on NUL bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "web/basic_auth.h"
#include "web/cidr.h"
#include "web/gzip.h"
#include "web/source_key.h"

namespace {

std::vector<std::string> Fields(std::string_view in, std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const auto nul = in.find('\0');
    out.emplace_back(in.substr(0, nul));
    in = nul == std::string_view::npos ? std::string_view() : in.substr(nul + 1);
  }
  out.emplace_back(in);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto f = Fields(std::string_view(reinterpret_cast<const char*>(data), size), 4);
  const std::string& authorization = f[0];
  const std::string& accept_encoding = f[1];
  const std::string& address = f[2];
  const std::string& cidrs = f[3];

  // Credentials are "user:password" with no NUL byte, or nothing.
  const std::string credentials = ovn_raft::BasicCredentials(authorization);
  if (!credentials.empty() &&
      (credentials.find(':') == std::string::npos || credentials.find('\0') != std::string::npos)) {
    __builtin_trap();
  }
  (void)ovn_raft::DecodeBase64(authorization);
  (void)ovn_raft::AcceptsGzip(accept_encoding);

  // A source key is its own key: requests from one client always count together.
  const std::string key = ovn_raft::SourceKey(address);
  if (ovn_raft::SourceKey(key) != key) __builtin_trap();

  // A parsed CIDR list is normalized: parsing it again gives it back.
  if (const auto list = ovn_raft::ParseCidrList(cidrs)) {
    std::string joined;
    for (const auto& cidr : *list) {
      joined += (joined.empty() ? "" : ",") + cidr;
      if (!ovn_raft::IsIpv6Cidr(cidr) && ovn_raft::Ipv4MappedCidr(cidr).rfind("::ffff:", 0) != 0) {
        __builtin_trap();
      }
    }
    const auto again = ovn_raft::ParseCidrList(joined);
    if (!again || *again != *list) __builtin_trap();
  }
  return 0;
}
