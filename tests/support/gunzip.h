#pragma once

// Inflates a gzip stream, for the tests of the exporter's gzipped pages. "" when it is not one.

#include <zlib.h>

#include <string>

namespace ovn_raft::testing {

inline std::string Gunzip(const std::string& packed) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) return "";
  std::string out(16 << 20, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.data()));
  z.avail_in = static_cast<uInt>(packed.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int result = inflate(&z, Z_FINISH);
  out.resize(z.total_out);
  inflateEnd(&z);
  return result == Z_STREAM_END ? out : "";
}

}  // namespace ovn_raft::testing
