#include "report/member_binding.h"

#include <algorithm>
#include <cctype>

#include "consensus/consensus.h"

namespace ovn_raft {
namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string Unbracketed(const std::string& host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    return host.substr(1, host.size() - 2);
  }
  return host;
}

bool IsHex(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
}

// A short ID as cluster/status prints it, a longer prefix of one, or a UUID.
bool LooksLikeServerId(const std::string& s) {
  if (s.size() == 36) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash ? s[i] != '-' : !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
    }
    return true;
  }
  return s.size() >= 4 && s.size() <= 32 && IsHex(s);
}

// Whether IDs `a` and `b` name one member: the short ID is the UUID's first hex digits.
bool SameId(const std::string& a, const std::string& b) {
  std::string x = Lower(a), y = Lower(b);
  x.erase(std::remove(x.begin(), x.end(), '-'), x.end());
  y.erase(std::remove(y.begin(), y.end(), '-'), y.end());
  if (x.empty() || y.empty()) return false;
  return x.size() <= y.size() ? y.compare(0, x.size(), x) == 0 : x.compare(0, y.size(), y) == 0;
}

}  // namespace

std::string UrlHost(const std::string& url) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) return "";
  std::string rest = url.substr(scheme + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const auto at = rest.rfind('@'); at != std::string::npos) rest = rest.substr(at + 1);
  if (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    return close == std::string::npos ? "" : Lower(rest.substr(1, close - 1));
  }
  return Lower(rest.substr(0, rest.find(':')));
}

bool SameUrl(const std::string& a, const std::string& b) {
  auto trimmed = [](const std::string& u) { return u.substr(0, u.find_last_not_of('/') + 1); };
  return trimmed(a) == trimmed(b);
}

Result<MemberBinding, std::string> ParseMemberBinding(const std::string& value) {
  using R = Result<MemberBinding, std::string>;
  const auto eq = value.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == value.size()) {
    return R::Failure("expected URL=MEMBER (a server ID, a Raft address or a host)");
  }
  MemberBinding b{.url = value.substr(0, eq), .member = value.substr(eq + 1), .by_id = false};
  if (UrlHost(b.url).empty()) return R::Failure("expected an http:// or https:// URL before '='");
  if (b.member.rfind("tcp:", 0) == 0 || b.member.rfind("ssl:", 0) == 0) {
    b.member = HostOf(b.member);
    if (b.member.empty()) return R::Failure("the Raft address has no host");
  } else if (LooksLikeServerId(b.member)) {
    b.by_id = true;
  }
  b.member = Lower(Unbracketed(b.member));
  if (b.member.find_first_of(" \t/@") != std::string::npos) {
    return R::Failure("expected a server ID, a Raft address or a host after '='");
  }
  return b;
}

Binding BindingOf(const MemberReport& entry, const std::string& url_host,
                  const std::vector<MemberBinding>& bindings) {
  using Kind = Binding::Kind;
  const std::string host = Lower(Unbracketed(HostOf(entry.address)));
  std::vector<std::string> hosts, ids;
  for (const auto& b : bindings) (b.by_id ? ids : hosts).push_back(b.member);
  for (const auto& id : ids) {
    if (SameId(id, entry.server_id)) return {Kind::kShown, "--member binds its URL to " + id};
  }
  if (!hosts.empty()) {
    if (std::find(hosts.begin(), hosts.end(), host) != hosts.end()) {
      return {Kind::kShown, "--member binds its URL to host " + host};
    }
    std::string named;
    for (const auto& h : hosts) named += (named.empty() ? "" : ", ") + h;
    return {Kind::kContradicts, "it reads member " + entry.server_id + " at host " +
                                    (host.empty() ? "?" : host) +
                                    ", but --member binds it to host " + named};
  }
  if (!ids.empty()) {
    // An ID names one database's member: in another database the URL may read its sibling,
    // which the host still ties to it.
    if (!host.empty() && host == url_host) return {Kind::kShown, "its URL's host is " + host};
    return {Kind::kNotShown,
            "its URL is bound by --member to another member than " + entry.server_id};
  }
  if (!host.empty() && host == url_host) return {Kind::kShown, "its URL's host is " + host};
  return {Kind::kNotShown, "its URL's host " + (url_host.empty() ? "?" : url_host) +
                               " is not its Raft address host " + (host.empty() ? "?" : host)};
}

}  // namespace ovn_raft
