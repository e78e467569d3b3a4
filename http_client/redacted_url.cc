#include "http_client/redacted_url.h"

#include <algorithm>

namespace ovn_raft {

std::string RedactedUrl(const std::string& url) {
  const auto scheme = url.find("://");
  const std::size_t authority = scheme == std::string::npos ? 0 : scheme + 3;
  const std::size_t end = std::min(url.find_first_of("/?#", authority), url.size());
  // The last '@' of the authority: a password may itself hold an unescaped '@'.
  const auto at = url.rfind('@', end == 0 ? 0 : end - 1);
  if (at == std::string::npos || at < authority) return url;
  return url.substr(0, authority) + "xxxxx" + url.substr(at);
}

}  // namespace ovn_raft
