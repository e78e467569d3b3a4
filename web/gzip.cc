#include "web/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "base/strings.h"

namespace ovn_raft {

bool AcceptsGzip(std::string_view accept_encoding) {
  bool gzip = false, star = false, gzip_named = false;
  std::size_t start = 0;
  while (start <= accept_encoding.size()) {
    const std::size_t comma = std::min(accept_encoding.find(',', start), accept_encoding.size());
    std::string_view item = Trim(accept_encoding.substr(start, comma - start));
    start = comma + 1;
    const std::size_t semi = item.find(';');
    std::string coding(Trim(item.substr(0, semi)));
    std::transform(coding.begin(), coding.end(), coding.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    bool accepted = true;
    if (semi != std::string_view::npos) {
      std::string_view param = Trim(item.substr(semi + 1));
      if (param.size() >= 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
        accepted = std::strtod(std::string(param.substr(2)).c_str(), nullptr) > 0;
      }
    }
    if (coding == "gzip" || coding == "x-gzip") {
      gzip_named = true;
      gzip = accepted;
    } else if (coding == "*") {
      star = accepted;
    }
  }
  return gzip_named ? gzip : star;
}

std::string Gzip(std::string_view data) {
  z_stream z{};
  // 15 + 16: a gzip header and trailer around the deflate stream.
  if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return "";
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int result = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return result == Z_STREAM_END ? out : "";
}

}  // namespace ovn_raft
