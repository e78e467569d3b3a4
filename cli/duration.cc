#include "cli/duration.h"

#include "base/strings.h"

namespace ovn_raft {

std::optional<std::chrono::milliseconds> ParseDuration(std::string_view text) {
  if (text == "0") return std::chrono::milliseconds(0);
  if (text.empty()) return std::nullopt;
  std::chrono::milliseconds total(0);
  while (!text.empty()) {
    const auto digits = text.find_first_not_of("0123456789");
    if (digits == 0 || digits == std::string_view::npos) return std::nullopt;
    const auto value = ParseUint(text.substr(0, digits));
    if (!value || *value > 1'000'000'000) return std::nullopt;
    text.remove_prefix(digits);
    const auto n = static_cast<std::int64_t>(*value);
    if (ConsumePrefix(text, "ms")) {
      total += std::chrono::milliseconds(n);
    } else if (ConsumePrefix(text, "s")) {
      total += std::chrono::seconds(n);
    } else if (ConsumePrefix(text, "m")) {
      total += std::chrono::minutes(n);
    } else if (ConsumePrefix(text, "h")) {
      total += std::chrono::hours(n);
    } else {
      return std::nullopt;
    }
  }
  return total;
}

std::string FormatDuration(std::chrono::milliseconds d) {
  const auto ms = d.count();
  if (ms == 0) return "0";
  if (ms % 3600000 == 0) return std::to_string(ms / 3600000) + "h";
  if (ms % 60000 == 0) return std::to_string(ms / 60000) + "m";
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + "s";
  return std::to_string(ms) + "ms";
}

}  // namespace ovn_raft
