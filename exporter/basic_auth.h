#pragma once

// HTTP basic authentication against bcrypt hashes. bcrypt is slow on purpose (tens of ms), so a
// successful check is cached: a scrape every few seconds must not pay it each time; and at most
// a few checks run at once, so that a flood of wrong passwords cannot take every core (past
// the limit a check is refused at once: 429). Thread-safe.

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

namespace ovn_raft {

enum class AuthResult { kAllowed, kDenied, kThrottled };

class BasicAuth {
 public:
  static constexpr int kMaxConcurrentChecks = 2;
  static constexpr std::size_t kMaxCached = 16;

  explicit BasicAuth(std::map<std::string, std::string> users);
  // `authorization` is the Authorization header's value, or empty when absent; `source` the
  // client's address. Everyone is allowed while there are no users (a web config without
  // basic_auth_users). One source runs at most one check at a time, so that a flood from one
  // source leaves a check slot to the others (it locked the right password out after a start).
  AuthResult Check(std::string_view authorization, const std::string& source = "");
  // A reloaded web config's users: the passwords verified before are checked again.
  void Replace(std::map<std::string, std::string> users);
  std::size_t users() const;

 private:
  std::map<std::string, std::string> users_;
  mutable std::mutex mu_;
  std::set<std::string> verified_;  // "user:password" pairs that matched, at most kMaxCached
  int checking_ = 0;                // bcrypt checks running now
  std::map<std::string, int> checking_by_source_;
};

// "dXNlcjpwYXNz" -> "user:pass"; empty on invalid input.
std::string DecodeBase64(std::string_view text);

}  // namespace ovn_raft
