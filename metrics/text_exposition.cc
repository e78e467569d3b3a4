#include "metrics/text_exposition.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace ovn_raft {
namespace {

void AppendValue(double v, std::string& out) {
  if (std::isnan(v)) {
    out += "NaN";
  } else if (std::isinf(v)) {
    out += v > 0 ? "+Inf" : "-Inf";
  } else if (v == std::trunc(v) && std::fabs(v) < 9007199254740992.0) {
    char buf[32];  // integral: "1000000000", not "1e+09", for log indexes and counts
    const auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), static_cast<std::int64_t>(v));
    out.append(buf, ec == std::errc() ? static_cast<std::size_t>(end - buf) : 0);
  } else {
    char buf[32];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);  // shortest round-trip
    out.append(buf, ec == std::errc() ? static_cast<std::size_t>(end - buf) : 0);
  }
}

// Whether `s` holds a character to escape: one vectorised memchr per character of the set (a
// page's HELP texts would cost a comparison per byte; find_first_of would call memchr on the
// set once per byte of `s`).
bool NeedsEscaping(const std::string& s, bool quotes) {
  const auto has = [&](char c) { return std::memchr(s.data(), c, s.size()) != nullptr; };
  return has('\\') || has('\n') || (quotes && has('"'));
}

// Label values escape \ " and newline; HELP text escapes \ and newline.
void AppendEscaped(const std::string& s, bool quotes, std::string& out) {
  if (!NeedsEscaping(s, quotes)) {  // the common case: copied in one piece
    out += s;
    return;
  }
  for (char c : s) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '"' && quotes) {
      out += "\\\"";
    } else {
      out += c;
    }
  }
}

const char* TypeName(prometheus::MetricType type) {
  switch (type) {
    case prometheus::MetricType::Counter:
      return "counter";
    default:
      return "gauge";
  }
}

}  // namespace

std::string TextExposition(const std::vector<prometheus::MetricFamily>& families) {
  std::string out;
  out.reserve(32768);  // room for a page of two databases of three members at once
  for (const auto& f : families) {
    // FamilyBuilder makes gauges and counters only; nothing else has a writer here.
    if (f.type != prometheus::MetricType::Counter && f.type != prometheus::MetricType::Gauge) {
      continue;
    }
    out += "# HELP ";
    out += f.name;
    out += ' ';
    AppendEscaped(f.help, false, out);
    out += "\n# TYPE ";
    out += f.name;
    out += ' ';
    out += TypeName(f.type);
    out += '\n';
    for (const auto& m : f.metric) {
      out += f.name;
      if (!m.label.empty()) {
        out += '{';
        bool first = true;
        for (const auto& l : m.label) {
          if (!first) out += ',';
          first = false;
          out += l.name;
          out += "=\"";
          AppendEscaped(l.value, true, out);
          out += '"';
        }
        out += '}';
      }
      out += ' ';
      AppendValue(f.type == prometheus::MetricType::Counter ? m.counter.value : m.gauge.value, out);
      if (m.timestamp_ms != 0) {
        out += ' ';
        out += std::to_string(m.timestamp_ms);
      }
      out += '\n';
    }
  }
  return out;
}

}  // namespace ovn_raft
