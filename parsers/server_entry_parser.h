#pragma once

#include <string>
#include <string_view>

#include "parsers/cluster_status.h"

namespace ovn_raft {

// Parses "NICK (SID at ADDRESS)" and returns what follows it in `rest`. Shared by the Servers:
// entries and the leader's "Adding server"/"Removing server" lines, which print members alike.
bool ParseMemberHead(std::string_view text, std::string* nickname, std::string* server_id,
                     Address* address, std::string_view* rest);

// Parses one "Servers:" entry (leading indentation allowed). Returns false, with `error` set,
// when the line is not an entry at all. Returns true with `error` set when the entry was read
// but a trailing part was not understood; the entry keeps everything before it.
bool ParseServerEntry(std::string_view line, ServerEntry* entry, std::string* error);

}  // namespace ovn_raft
