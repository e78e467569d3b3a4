#include "web/basic_auth.h"

#include <crypt.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <vector>

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

// For each distinct cost among the users, a bcrypt setting at that cost whose hash nothing
// matches.
std::map<int, std::string> Dummies(const std::map<std::string, std::string>& users) {
  std::map<int, std::string> out;
  for (const auto& [user, hash] : users) {
    const int cost = CostOf(hash);
    out[cost] = "$2y$" + std::string(cost < 10 ? "0" : "") + std::to_string(cost) +
                "$7Jm4gS9zcr6K/W4m2aHYl.2T0GJc5n2ZKWh38C5rM8rQbJ1nXo5bS";
  }
  return out;
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
    : users_(std::move(users)), max_wait_(max_wait), dummies_(Dummies(users_)) {}

void BasicAuth::Replace(std::map<std::string, std::string> users) {
  const std::lock_guard<std::mutex> lock(mu_);
  users_ = std::move(users);
  dummies_ = Dummies(users_);
  ++generation_;
  // A password verified against a hash the reload kept still matches it; priority goes with a
  // user the reload kept, even under a new hash (a rotation: its scraper comes with the new
  // password, and still goes first).
  for (auto it = verified_.begin(); it != verified_.end();) {
    const auto user = users_.find(it->second.user);
    const bool kept = user != users_.end() && user->second == it->second.hash;
    it = kept ? std::next(it) : verified_.erase(it);
  }
  for (auto it = trusted_.begin(); it != trusted_.end();) {
    it = users_.count(it->second) ? std::next(it) : trusted_.erase(it);
  }
}

std::size_t BasicAuth::users() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return users_.size();
}

std::uint64_t BasicAuth::bcrypt_calls() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return bcrypt_calls_;
}

std::uint64_t BasicAuth::bcrypt_work() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return bcrypt_work_;
}

int BasicAuth::checks_running() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return checking_;
}

int BasicAuth::peak_checks() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return peak_checks_;
}

std::size_t BasicAuth::waiting() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return waiting_.size();
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
  const bool trusted = trusted_.count(source) > 0;
  const auto mark = suspects_.find(source);
  const bool suspect = !trusted && mark != suspects_.end() && now - mark->second < kSuspectFor;
  const auto seen = trusted || suspect ? now : Seen(source, now);
  if (checking_ >= kMaxConcurrentChecks || !waiting_.empty()) {
    if (suspect) return AuthResult::kThrottled;
    if (!trusted) {
      // At most kMaxWaiting untrusted sources wait (a trusted source is in line at most once,
      // so it needs no bound). When they are that many, the one first seen earliest gives its
      // place to a source seen later, or this one is refused.
      std::size_t untrusted = 0;
      auto earliest = waiting_.end();
      for (auto w = waiting_.begin(); w != waiting_.end(); ++w) {
        if (w->trusted) continue;
        ++untrusted;
        if (earliest == waiting_.end() || w->seen < earliest->seen) earliest = w;
      }
      if (untrusted >= kMaxWaiting) {
        if (earliest->seen >= seen) return AuthResult::kThrottled;
        waiting_.erase(earliest);
        slot_freed_.notify_all();  // it finds itself out of line
      }
    }
    const std::uint64_t ticket = next_ticket_++;
    waiting_.push_back({ticket, trusted, seen});
    busy_sources_.insert(source);
    bool out = false;
    const bool turn = slot_freed_.wait_until(lock, now + max_wait_, [&] {
      out = !InLine(ticket);
      return out || (checking_ < kMaxConcurrentChecks && NextInLine() == ticket);
    });
    if (!out) {
      waiting_.erase(std::find_if(waiting_.begin(), waiting_.end(),
                                  [ticket](const Waiter& w) { return w.ticket == ticket; }));
    }
    slot_freed_.notify_all();  // the next in line may go, or move up
    if (!turn || out) {
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
  const std::uint64_t generation = generation_;
  const auto it = users_.find(user);
  const bool known = it != users_.end();
  const std::string hash = known ? it->second : "";
  // One bcrypt per distinct cost, in the same order whatever the name: the user's hash at its
  // cost, one that matches nothing at every other (all of them for an unknown name), so that
  // the time tells neither whether the name exists nor its cost.
  std::vector<std::string> hashes;
  std::size_t own = dummies_.size();  // the index of the user's hash; none for an unknown name
  const int cost = known ? CostOf(hash) : -1;
  for (const auto& [c, dummy] : dummies_) {
    if (c == cost) own = hashes.size();
    hashes.push_back(c == cost ? hash : dummy);
  }
  bcrypt_calls_ += hashes.size();
  for (const auto& h : hashes) bcrypt_work_ += std::uint64_t{1} << CostOf(h);
  lock.unlock();
  bool ok = false;
  for (std::size_t i = 0; i < hashes.size(); ++i) {
    const bool matched = BcryptMatches(password, hashes[i]);
    if (i == own) ok = matched;
  }
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
  verified_[digest] = Proof{user, hash};
  if (trusted_.size() >= kMaxSources) trusted_.clear();
  trusted_[source] = user;
  suspects_.erase(source);
  return AuthResult::kAllowed;
}

// Trusted sources in order of arrival, then the source first seen last.
std::uint64_t BasicAuth::NextInLine() const {
  const Waiter* next = nullptr;
  for (const Waiter& w : waiting_) {
    if (w.trusted) return w.ticket;
    if (next == nullptr || w.seen > next->seen) next = &w;
  }
  return next->ticket;
}

bool BasicAuth::InLine(std::uint64_t ticket) const {
  return std::any_of(waiting_.begin(), waiting_.end(),
                     [ticket](const Waiter& w) { return w.ticket == ticket; });
}

// When `source` was first seen; `now` for one seen only now. Bounded: past kMaxSources the
// earliest seen is forgotten (seen again, it counts as new).
std::chrono::steady_clock::time_point BasicAuth::Seen(const std::string& source,
                                                      std::chrono::steady_clock::time_point now) {
  if (const auto it = first_seen_.find(source); it != first_seen_.end()) return it->second;
  if (first_seen_.size() >= kMaxSources) {
    first_seen_.erase(
        std::min_element(first_seen_.begin(), first_seen_.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; }));
  }
  first_seen_.emplace(source, now);
  return now;
}

}  // namespace ovn_raft
