#pragma once

// What the report sends to exporters and must never print back: a /status (a hostile one, or
// an exporter behind a proxy that reflects the request) can echo the basic-auth password, the
// "user:password" pair or its base64 Authorization value in any field it serves. Pure.

#include <string>
#include <vector>

#include "consensus/member_report.h"

namespace ovn_raft {

// The strings that must not be printed for basic-auth `user_password` ("user:password"):
// the password, the pair and its base64 (as the Authorization header carries it). None for "".
std::vector<std::string> BasicAuthSecrets(const std::string& user_password);

// The userinfo of `url` ("http://user:pass@host/" -> "user:pass"), percent-decoded as libcurl
// sends it; "" when none.
std::string UrlUserinfo(const std::string& url);

// `text` with every occurrence of each of `secrets` replaced by "xxxxx" (as a URL's password
// is shown).
std::string WithoutSecrets(std::string text, const std::vector<std::string>& secrets);

// Every string of `report` (values and keys) through WithoutSecrets.
void RemoveSecrets(MemberReport& report, const std::vector<std::string>& secrets);

}  // namespace ovn_raft
