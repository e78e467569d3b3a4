#pragma once

// Which member a URL is shown to be the exporter of. A URL's /status can say anything of
// itself; the report takes it as a member's own word only when something outside the document
// ties the two: the URL's host is the member's Raft address host (an exporter beside its
// member, as a sidecar on the host network), or the operator said so (--member URL=MEMBER).
// Pure.

#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "consensus/member_report.h"

namespace ovn_raft {

// One --member value: URL=MEMBER, where MEMBER is
//  - a server ID (hex digits, 4 to 32 of them, or a UUID): the URL is that member's exporter
//    in the database where it has that ID;
//  - a Raft address (tcp:HOST:PORT, ssl:HOST:PORT): the URL is the exporter of the members at
//    HOST, in every database;
//  - anything else, a host name or IP address: the same, for that host.
// Split at the last '=': a URL may hold '=', a member never does.
struct MemberBinding {
  std::string url;     // as given (credentials included; never printed as is)
  std::string member;  // a server ID or a host (brackets removed, lower case)
  bool by_id = false;
};
Result<MemberBinding, std::string> ParseMemberBinding(const std::string& value);

// The host of a URL ("http://u:p@[fd00::1]:8080/x" -> "fd00::1"), lower case; "" when none.
std::string UrlHost(const std::string& url);

// Whether two URLs name one exporter as the report reads it: alike but for trailing '/'.
bool SameUrl(const std::string& a, const std::string& b);

// How one URL's entry stands with its member.
struct Binding {
  enum class Kind {
    kShown,        // the URL is the member's own exporter: `how` says why
    kNotShown,     // nothing ties them: `how` says what is missing
    kContradicts,  // a --member says the URL is another member's: `how` says which
  };
  Kind kind = Kind::kNotShown;
  std::string how;
};

// The binding of `entry`, read from a URL of host `url_host` for which the operator gave
// `bindings` (the --member values of that URL; none when it has none).
Binding BindingOf(const MemberReport& entry, const std::string& url_host,
                  const std::vector<MemberBinding>& bindings);

}  // namespace ovn_raft
