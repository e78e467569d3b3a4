#pragma once

// HTTP basic authentication against bcrypt hashes. bcrypt is slow on purpose (tens of ms), so a
// successful check is cached: a scrape every few seconds must not pay it each time.
// Thread-safe.

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

namespace ovn_raft {

class BasicAuth {
 public:
  explicit BasicAuth(std::map<std::string, std::string> users);
  // `authorization` is the Authorization header's value, or empty when absent.
  bool Check(std::string_view authorization);

 private:
  std::map<std::string, std::string> users_;
  std::mutex mu_;
  std::set<std::string> verified_;  // "user\0password" pairs that matched
};

// "dXNlcjpwYXNz" -> "user:pass"; empty on invalid input.
std::string DecodeBase64(std::string_view text);

}  // namespace ovn_raft
