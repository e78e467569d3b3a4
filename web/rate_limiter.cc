#include "web/rate_limiter.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

namespace ovn_raft {

std::optional<std::chrono::nanoseconds> ParseGoDuration(std::string_view text) {
  if (text == "0") return std::chrono::nanoseconds(0);
  if (text.empty()) return std::nullopt;
  static constexpr std::pair<std::string_view, double> kUnits[] = {
      {"ns", 1},   {"us", 1e3}, {"\xc2\xb5s", 1e3}, {"\xce\xbcs", 1e3},
      {"ms", 1e6}, {"s", 1e9},  {"m", 60e9},        {"h", 3600e9}};
  double total = 0;
  while (!text.empty()) {
    std::size_t digits = 0, dots = 0;
    while (digits < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.')) {
      dots += text[digits] == '.';
      ++digits;
    }
    if (digits == 0 || dots > 1 || (digits == 1 && dots == 1)) return std::nullopt;
    // strtod, not stod: a number too large to hold is infinity (refused below), not a throw.
    const double number = std::strtod(std::string(text.substr(0, digits)).c_str(), nullptr);
    text.remove_prefix(digits);
    std::size_t unit_length = 0;
    while (unit_length < text.size() && text[unit_length] != '.' &&
           !std::isdigit(static_cast<unsigned char>(text[unit_length]))) {
      ++unit_length;
    }
    const std::string_view unit = text.substr(0, unit_length);
    const auto* u = std::find_if(std::begin(kUnits), std::end(kUnits),
                                 [unit](const auto& k) { return k.first == unit; });
    if (u == std::end(kUnits)) return std::nullopt;  // no unit, or an unknown one
    total += number * u->second;
    text.remove_prefix(unit_length);
  }
  if (!std::isfinite(total) ||
      total >= static_cast<double>(std::numeric_limits<std::int64_t>::max())) {
    return std::nullopt;
  }
  return std::chrono::nanoseconds(static_cast<std::int64_t>(total));
}

void RateLimiter::Set(const RateLimit& limit) {
  const std::lock_guard<std::mutex> lock(mu_);
  if (limit == limit_) return;
  limit_ = limit;
  tokens_ = static_cast<double>(limit.burst);
  last_.reset();
}

bool RateLimiter::Allow(Clock::time_point now) {
  const std::lock_guard<std::mutex> lock(mu_);
  if (limit_.interval.count() == 0) return true;
  double tokens = tokens_;
  if (last_ && now > *last_) {
    tokens += std::chrono::duration<double>(now - *last_) /
              std::chrono::duration<double>(limit_.interval);
  }
  tokens = std::min(tokens, static_cast<double>(limit_.burst));
  if (tokens < 1) return false;
  tokens_ = tokens - 1;
  last_ = std::max(now, last_.value_or(now));
  return true;
}

long RateLimiter::RetryAfterSeconds() const {
  const std::lock_guard<std::mutex> lock(mu_);
  const double seconds = std::chrono::duration<double>(limit_.interval).count();
  return std::max(1L, static_cast<long>(std::ceil(seconds)));
}

}  // namespace ovn_raft
