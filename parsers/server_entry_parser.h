#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "parsers/cluster_status.h"

namespace ovn_raft {

// "NICK (SID at ADDRESS)" and what follows it. Shared by the Servers: entries and the leader's
// "Adding server"/"Removing server" lines, which print members alike.
struct MemberHead {
  std::string nickname, server_id;
  Address address;
  std::string_view rest;  // after the closing parenthesis, in the text parsed
};
std::optional<MemberHead> ParseMemberHead(std::string_view text);

// One "Servers:" entry (leading indentation allowed). An entry whose trailing part is not
// understood keeps everything before it, and `warning` says what was skipped.
struct ParsedServerEntry {
  ServerEntry entry;
  std::optional<std::string> warning;
};
// The error: the line is not an entry at all.
Result<ParsedServerEntry, std::string> ParseServerEntry(std::string_view line);

}  // namespace ovn_raft
