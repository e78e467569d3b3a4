#pragma once

// HTTP basic authentication against bcrypt hashes. bcrypt is slow on purpose, so a
// successful check is cached: a scrape every few seconds must not pay it each time; and at most
// a few checks run at once, so that a flood of wrong passwords cannot take every core. Past
// that limit, a source that gave a wrong password lately is refused at once (429); any other
// waits its turn, briefly: sources that gave a right password before first, then the source
// first seen last. So guesses from sources seen before a scraper first asked (a start into a
// flood; sources guessing again once their mark expired) never go before that scraper; only
// sources new to the process do, one check each, each then refused for kSuspectFor.
// A reload keeps the passwords verified against a hash it kept, and the turn of the sources
// whose user it kept. Every check computes one bcrypt per distinct cost among the users (the
// user's hash at its cost, one that matches nothing at the others), so that the time tells
// neither whether a name exists nor its cost.
// The cache keeps keyed hashes (keyed_hash.h), never a password; a check that began before a
// reload never caches, nor admits, a password the reload revoked. Thread-safe.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "web/keyed_hash.h"

namespace ovn_raft {

enum class AuthResult { kAllowed, kDenied, kThrottled };

class BasicAuth {
 public:
  static constexpr int kMaxConcurrentChecks = 2;
  static constexpr std::size_t kMaxCached = 16;
  // Sources without a recent wrong password wait at most this long for a check slot, at most
  // kMaxWaiting untrusted ones at once (each holds a worker meanwhile).
  static constexpr std::chrono::milliseconds kMaxWait{1000};
  static constexpr std::size_t kMaxWaiting = 8;
  // A wrong password marks its source for this long. At most kMaxSources suspect, as many
  // trusted and as many seen sources are remembered. An IPv6 source is its /64: one host can
  // hold a whole one.
  static constexpr std::chrono::seconds kSuspectFor{60};
  static constexpr std::size_t kMaxSources = 4096;

  // `max_wait` replaces kMaxWait (tests on a loaded machine, where a check may outlast it).
  explicit BasicAuth(std::map<std::string, std::string> users,
                     std::chrono::milliseconds max_wait = kMaxWait);
  // `authorization` is the Authorization header's value, or empty when absent; `address` the
  // client's address. Everyone is allowed while there are no users (a web config without
  // basic_auth_users). Fair to sources: one source runs or awaits at most one check at a time,
  // and a source that guessed wrong never goes before one that did not, so floods from one or
  // many sources leave the slots to a scraper with the right password, even right after a
  // start or a reload, before its password is cached.
  AuthResult Check(std::string_view authorization, const std::string& address = "");
  // A reloaded web config's users: the passwords verified before against a hash that changed
  // or went are checked again, and sources keep their priority only if their user stayed.
  void Replace(std::map<std::string, std::string> users);
  std::size_t users() const;
  // For tests and benchmarks: bcrypt computations so far, their work (the sum of 2^cost: what
  // a check's time is proportional to), how many checks run now, the most that ran at once,
  // and how many wait.
  std::uint64_t bcrypt_calls() const;
  std::uint64_t bcrypt_work() const;
  int checks_running() const;
  int peak_checks() const;
  std::size_t waiting() const;

 private:
  std::map<std::string, std::string> users_;
  const std::chrono::milliseconds max_wait_;
  std::uint64_t generation_ = 0;  // bumped by every Replace
  // The distinct costs among the users, each with a hash at that cost that matches nothing.
  std::map<int, std::string> dummies_;
  mutable std::mutex mu_;
  struct Proof {
    std::string user, hash;  // what the password was verified against
  };
  std::map<KeyedDigest, Proof> verified_;  // keyed hashes of "user:password" that matched
  std::uint64_t bcrypt_calls_ = 0;
  std::uint64_t bcrypt_work_ = 0;
  int peak_checks_ = 0;
  int checking_ = 0;                    // bcrypt checks running now
  std::set<std::string> busy_sources_;  // sources with a check running or waiting
  struct Waiter {
    std::uint64_t ticket;
    bool trusted;  // its source gave a right password before: it goes first
    std::chrono::steady_clock::time_point seen;  // when its source was first seen
  };
  std::deque<Waiter> waiting_;  // in order of arrival; a waiter pushed out is taken out
  std::uint64_t next_ticket_ = 0;
  std::condition_variable slot_freed_;
  std::map<std::string, std::chrono::steady_clock::time_point> suspects_;  // last wrong password
  std::map<std::string, std::string> trusted_;  // source -> the user it gave a right password of
  // Sources that asked for a check -> when they first did, bounded (the earliest go).
  std::map<std::string, std::chrono::steady_clock::time_point> first_seen_;
  std::uint64_t NextInLine() const;
  bool InLine(std::uint64_t ticket) const;
  std::chrono::steady_clock::time_point Seen(const std::string& source,
                                             std::chrono::steady_clock::time_point now);
};

// "dXNlcjpwYXNz" -> "user:pass"; empty on invalid input.
std::string DecodeBase64(std::string_view text);
// An Authorization header's "Basic dXNlcjpwYXNz" -> "user:pass"; empty when the header is not a
// usable Basic credential (another scheme, bad base64, no colon, a NUL byte). Pure.
std::string BasicCredentials(std::string_view authorization);

}  // namespace ovn_raft
