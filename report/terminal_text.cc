#include "report/terminal_text.h"

#include <cstdio>

#include "base/utf8.h"
#include "report/member_strings.h"

namespace ovn_raft {
namespace {

// Code points a terminal acts on or reorders text by: the C1 controls, and the marks and
// overrides of bidirectional text.
bool Hidden(unsigned code) {
  return (code >= 0x80 && code <= 0x9F) || code == 0x061C || code == 0x200E || code == 0x200F ||
         (code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069);
}

// The code point of the well-formed sequence of `n` bytes at `s`.
unsigned CodePoint(const unsigned char* s, std::size_t n) {
  if (n == 1) return s[0];
  unsigned code = s[0] & (0xFF >> (n + 1));
  for (std::size_t k = 1; k < n; ++k) code = (code << 6) | (s[k] & 0x3F);
  return code;
}

std::size_t LengthOf(unsigned char lead) {
  return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
}

}  // namespace

std::string TerminalText(std::string_view text) {
  const std::string valid = ValidUtf8(text);  // every sequence below is well-formed
  std::string out;
  out.reserve(valid.size());
  const auto* bytes = reinterpret_cast<const unsigned char*>(valid.data());
  for (std::size_t i = 0; i < valid.size();) {
    const std::size_t n = LengthOf(bytes[i]);
    const unsigned code = CodePoint(bytes + i, n);
    char escape[16];
    if (code == '\\') {
      out += "\\\\";
    } else if (code < 0x20 || code == 0x7F) {
      std::snprintf(escape, sizeof(escape), "\\x%02x", code);
      out += escape;
    } else if (Hidden(code)) {
      std::snprintf(escape, sizeof(escape), "\\u%04x", code);
      out += escape;
    } else {
      out.append(valid, i, n);
    }
    i += n;
  }
  return out;
}

void MakeTerminalSafe(MemberReport& r) {
  RewriteStrings(r, [](const std::string& s) { return TerminalText(s); });
}

}  // namespace ovn_raft
