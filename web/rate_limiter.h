#pragma once

// The web config's rate_limit, as exporter-toolkit has it: one token bucket for every request
// (one client can spend it for all: it bounds the exporter's load, not a client's share),
// holding at most `burst` tokens, one more every `interval`; a request finds a token or gets
// 429. Full at start. Thread-safe.

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace ovn_raft {

struct RateLimit {
  std::chrono::nanoseconds interval{0};  // 0: no limit
  int burst = 0;
  bool operator==(const RateLimit&) const = default;
};

// A Go duration as exporter-toolkit's YAML reads it ("1s", "1.5s", "250ms", "1m30s", "0"); nullopt
// for anything else, a negative one, or a bare number other than 0 (Go would read nanoseconds,
// surely not what was meant). Pure.
std::optional<std::chrono::nanoseconds> ParseGoDuration(std::string_view text);

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;

  explicit RateLimiter(RateLimit limit = {}) : limit_(limit), tokens_(limit.burst) {}
  // A reloaded web config's limit: a new, full bucket when it changed, else the same.
  void Set(const RateLimit& limit);
  // Takes a token, or says there is none (and changes nothing).
  bool Allow(Clock::time_point now = Clock::now());
  // Whole seconds until the next token, at least 1: the 429's Retry-After.
  long RetryAfterSeconds() const;

 private:
  mutable std::mutex mu_;
  RateLimit limit_;
  double tokens_;
  std::optional<Clock::time_point> last_;  // the last token taken
};

}  // namespace ovn_raft
