#include "web/basic_auth.h"

#include <crypt.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>

#include "web/source_key.h"

namespace ovn_raft {
namespace {

// Equal bytes, in a time that depends on the lengths only.
bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  }
  return diff == 0;
}

bool BcryptMatches(const std::string& password, const std::string& hash) {
  auto data = std::make_unique<crypt_data>();
  std::memset(data.get(), 0, sizeof(crypt_data));
  const char* out = crypt_r(password.c_str(), hash.c_str(), data.get());
  // crypt_r signals failure with a string starting with '*'.
  const bool ok = out != nullptr && out[0] != '*' && ConstantTimeEquals(hash, out);
  std::memset(data.get(), 0, sizeof(crypt_data));  // holds the password's key schedule
  return ok;
}

// The cost of a "$2b$NN$..." hash (web_config.cc admits no other form), 0 if unreadable.
int CostOf(const std::string& hash) {
  if (hash.size() < 7 || !std::isdigit(static_cast<unsigned char>(hash[4])) ||
      !std::isdigit(static_cast<unsigned char>(hash[5]))) {
    return 0;
  }
  return (hash[4] - '0') * 10 + (hash[5] - '0');
}

// A bcrypt setting at the users' highest cost (10 without users) whose hash nothing matches.
std::string DummyHash(const std::map<std::string, std::string>& users) {
  int cost = users.empty() ? 10 : 4;
  for (const auto& [user, hash] : users) cost = std::max(cost, CostOf(hash));
  const std::string digits = std::to_string(cost);
  return "$2y$" + std::string(cost < 10 ? "0" : "") + digits +
         "$7Jm4gS9zcr6K/W4m2aHYl.2T0GJc5n2ZKWh38C5rM8rQbJ1nXo5bS";
}

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

BasicAuth::BasicAuth(std::map<std::string, std::string> users, std::chrono::milliseconds max_wait)
    : users_(std::move(users)), max_wait_(max_wait), dummy_hash_(DummyHash(users_)) {}

void BasicAuth::Replace(std::map<std::string, std::string> users) {
  const std::lock_guard<std::mutex> lock(mu_);
  users_ = std::move(users);
  dummy_hash_ = DummyHash(users_);
  ++generation_;
  verified_.clear();
  trusted_.clear();
}

std::size_t BasicAuth::users() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return users_.size();
}

std::uint64_t BasicAuth::bcrypt_calls() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return bcrypt_calls_;
}

int BasicAuth::checks_running() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return checking_;
}

int BasicAuth::peak_checks() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return peak_checks_;
}

std::string BasicCredentials(std::string_view authorization) {
  // The scheme is case-insensitive (RFC 7617 via RFC 9110): "basic" and "BASIC" are Basic.
  constexpr std::string_view kScheme = "basic ";
  const std::string_view scheme = authorization.substr(0, kScheme.size());
  if (scheme.size() != kScheme.size() ||
      !std::equal(scheme.begin(), scheme.end(), kScheme.begin(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == b;
      })) {
    return "";
  }
  std::string decoded = DecodeBase64(authorization.substr(kScheme.size()));
  // crypt_r stops at a NUL byte: such a password is not what bcrypt would verify.
  if (decoded.find(':') == std::string::npos || decoded.find('\0') != std::string::npos) {
    return "";
  }
  return decoded;
}

AuthResult BasicAuth::Check(std::string_view authorization, const std::string& address) {
  const std::string source = SourceKey(address);
  const std::string decoded = BasicCredentials(authorization);
  const auto colon = decoded.find(':');
  const std::string user = decoded.substr(0, colon);
  const std::string password = colon == std::string::npos ? "" : decoded.substr(colon + 1);
  const KeyedDigest digest = KeyedHash(decoded);
  const auto now = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mu_);
  if (users_.empty()) return AuthResult::kAllowed;
  if (decoded.empty()) return AuthResult::kDenied;
  if (verified_.count(digest)) return AuthResult::kAllowed;
  if (busy_sources_.count(source)) return AuthResult::kThrottled;
  if (checking_ >= kMaxConcurrentChecks || !waiting_.empty()) {
    // A trusted source is in line at most once (busy_sources_), so it never needs a bound.
    const bool trusted = trusted_.count(source) > 0;
    const auto suspect = suspects_.find(source);
    if (!trusted && ((suspect != suspects_.end() && now - suspect->second < kSuspectFor) ||
                     waiting_.size() >= kMaxWaiting)) {
      return AuthResult::kThrottled;
    }
    const std::uint64_t ticket = next_ticket_++;
    waiting_.push_back({ticket, trusted});
    busy_sources_.insert(source);
    const bool turn = slot_freed_.wait_until(lock, now + max_wait_, [&] {
      return checking_ < kMaxConcurrentChecks && NextInLine() == ticket;
    });
    waiting_.erase(std::find_if(waiting_.begin(), waiting_.end(),
                                [ticket](const Waiter& w) { return w.ticket == ticket; }));
    slot_freed_.notify_all();  // the next in line may go, or move up
    if (!turn) {
      busy_sources_.erase(source);
      return AuthResult::kThrottled;
    }
    if (verified_.count(digest)) {  // verified while this one waited
      busy_sources_.erase(source);
      return AuthResult::kAllowed;
    }
  } else {
    busy_sources_.insert(source);
  }
  ++checking_;
  peak_checks_ = std::max(peak_checks_, checking_);
  ++bcrypt_calls_;
  const std::uint64_t generation = generation_;
  const auto it = users_.find(user);
  const bool known = it != users_.end();
  // Unknown users cost a bcrypt too, as dear as the dearest known one, so that response time
  // does not tell which names exist.
  const std::string hash = known ? it->second : dummy_hash_;
  lock.unlock();
  bool ok = BcryptMatches(password, hash) && known;
  lock.lock();
  --checking_;
  busy_sources_.erase(source);
  slot_freed_.notify_all();
  if (ok && generation != generation_) {
    // The users were replaced meanwhile: the password stands only if the user's hash did.
    const auto now_it = users_.find(user);
    ok = now_it != users_.end() && now_it->second == hash;
  }
  if (!ok) {
    if (suspects_.size() >= kMaxSources) {
      for (auto s = suspects_.begin(); s != suspects_.end();) {
        s = now - s->second >= kSuspectFor ? suspects_.erase(s) : std::next(s);
      }
      if (suspects_.size() >= kMaxSources) suspects_.clear();  // bounded; marks come back
    }
    suspects_[source] = now;
    return AuthResult::kDenied;
  }
  if (verified_.size() >= kMaxCached) verified_.clear();  // bounded; the right ones come back
  verified_.insert(digest);
  if (trusted_.size() >= kMaxSources) trusted_.clear();
  trusted_.insert(source);
  suspects_.erase(source);
  return AuthResult::kAllowed;
}

std::uint64_t BasicAuth::NextInLine() const {
  for (const Waiter& w : waiting_) {
    if (w.trusted) return w.ticket;
  }
  return waiting_.front().ticket;
}

}  // namespace ovn_raft
