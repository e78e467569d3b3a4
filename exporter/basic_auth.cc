#include "basic_auth.h"

#include <crypt.h>

#include <cstring>
#include <memory>

namespace ovn_raft {
namespace {

bool BcryptMatches(const std::string& password, const std::string& hash) {
  auto data = std::make_unique<crypt_data>();
  std::memset(data.get(), 0, sizeof(crypt_data));
  const char* out = crypt_r(password.c_str(), hash.c_str(), data.get());
  // crypt_r signals failure with a string starting with '*'.
  return out != nullptr && out[0] != '*' && hash == out;
}

// Spent on unknown users too, so response time does not tell which user names exist.
const char kDummyHash[] = "$2y$10$7Jm4gS9zcr6K/W4m2aHYl.2T0GJc5n2ZKWh38C5rM8rQbJ1nXo5bS";

}  // namespace

std::string DecodeBase64(std::string_view text) {
  static const std::string kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    const auto pos = kAlphabet.find(c);
    if (pos == std::string::npos) return "";
    buffer = (buffer << 6) | static_cast<unsigned>(pos);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xff);
    }
  }
  return out;
}

BasicAuth::BasicAuth(std::map<std::string, std::string> users) : users_(std::move(users)) {}

bool BasicAuth::Check(std::string_view authorization) {
  constexpr std::string_view kScheme = "Basic ";
  if (authorization.substr(0, kScheme.size()) != kScheme) return false;
  const std::string decoded = DecodeBase64(authorization.substr(kScheme.size()));
  const auto colon = decoded.find(':');
  if (colon == std::string::npos) return false;
  const std::string user = decoded.substr(0, colon);
  const std::string password = decoded.substr(colon + 1);
  const std::string key = user + '\0' + password;
  {
    const std::lock_guard<std::mutex> lock(mu_);
    if (verified_.count(key)) return true;
  }
  const auto it = users_.find(user);
  if (it == users_.end()) {
    BcryptMatches(password, kDummyHash);
    return false;
  }
  if (!BcryptMatches(password, it->second)) return false;
  const std::lock_guard<std::mutex> lock(mu_);
  verified_.insert(key);
  return true;
}

}  // namespace ovn_raft
