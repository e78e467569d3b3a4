#include "report/echoed_secrets.h"

#include <algorithm>

#include "report/member_strings.h"

namespace ovn_raft {
namespace {

std::string Base64(const std::string& in) {
  static const char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) |
                       (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(v >> s) & 63];
  }
  if (i + 1 == in.size()) {
    const unsigned v = static_cast<unsigned char>(in[i]) << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == in.size()) {
    const unsigned v =
        (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string PercentDecoded(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && HexValue(s[i + 1]) >= 0 && HexValue(s[i + 2]) >= 0) {
      out += static_cast<char>(HexValue(s[i + 1]) * 16 + HexValue(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

std::string UrlUserinfo(const std::string& url) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) return "";
  const std::string authority =
      url.substr(scheme + 3, url.find_first_of("/?#", scheme + 3) - (scheme + 3));
  const auto at = authority.rfind('@');
  return at == std::string::npos ? "" : PercentDecoded(authority.substr(0, at));
}

std::vector<std::string> BasicAuthSecrets(const std::string& user_password) {
  if (user_password.empty()) return {};
  const auto colon = user_password.find(':');
  std::vector<std::string> out = {Base64(user_password), user_password};
  if (colon != std::string::npos && colon + 1 < user_password.size()) {
    out.push_back(user_password.substr(colon + 1));
  }
  // Longest first: the pair is replaced whole, not around its password.
  std::sort(out.begin(), out.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  return out;
}

std::string WithoutSecrets(std::string text, const std::vector<std::string>& secrets) {
  static const std::string kShown = "xxxxx";
  for (const auto& secret : secrets) {
    if (secret.empty()) continue;
    for (auto at = text.find(secret); at != std::string::npos;
         at = text.find(secret, at + kShown.size())) {
      text.replace(at, secret.size(), kShown);
    }
  }
  return text;
}

void RemoveSecrets(MemberReport& report, const std::vector<std::string>& secrets) {
  if (secrets.empty()) return;
  RewriteStrings(report, [&](const std::string& s) { return WithoutSecrets(s, secrets); });
}

}  // namespace ovn_raft
