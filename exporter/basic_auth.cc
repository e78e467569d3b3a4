#include "exporter/basic_auth.h"

#include <crypt.h>

#include <algorithm>
#include <cctype>
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

void BasicAuth::Replace(std::map<std::string, std::string> users) {
  const std::lock_guard<std::mutex> lock(mu_);
  users_ = std::move(users);
  verified_.clear();
}

std::size_t BasicAuth::users() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return users_.size();
}

AuthResult BasicAuth::Check(std::string_view authorization, const std::string& source) {
  if (users() == 0) return AuthResult::kAllowed;
  // The scheme is case-insensitive (RFC 7617 via RFC 9110): "basic" and "BASIC" are Basic.
  constexpr std::string_view kScheme = "basic ";
  const std::string_view scheme = authorization.substr(0, kScheme.size());
  if (scheme.size() != kScheme.size() ||
      !std::equal(scheme.begin(), scheme.end(), kScheme.begin(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == b;
      })) {
    return AuthResult::kDenied;
  }
  const std::string decoded = DecodeBase64(authorization.substr(kScheme.size()));
  const auto colon = decoded.find(':');
  // crypt_r stops at a NUL byte: such a password is not what bcrypt would verify.
  if (colon == std::string::npos || decoded.find('\0') != std::string::npos) {
    return AuthResult::kDenied;
  }
  const std::string user = decoded.substr(0, colon);
  const std::string password = decoded.substr(colon + 1);
  std::string hash;
  bool known = false;
  {
    const std::lock_guard<std::mutex> lock(mu_);
    if (verified_.count(decoded)) return AuthResult::kAllowed;
    if (checking_ >= kMaxConcurrentChecks || checking_by_source_.count(source)) {
      return AuthResult::kThrottled;
    }
    ++checking_;
    checking_by_source_[source] = 1;
    const auto it = users_.find(user);
    known = it != users_.end();
    // Unknown users cost a bcrypt too, so response time does not tell which names exist.
    hash = known ? it->second : kDummyHash;
  }
  const bool ok = BcryptMatches(password, hash) && known;
  const std::lock_guard<std::mutex> lock(mu_);
  --checking_;
  checking_by_source_.erase(source);
  if (!ok) return AuthResult::kDenied;
  if (verified_.size() >= kMaxCached) verified_.clear();  // bounded; the right ones come back
  verified_.insert(decoded);
  return AuthResult::kAllowed;
}

}  // namespace ovn_raft
