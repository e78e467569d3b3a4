#pragma once

// Text from the network, made safe to print on an operator's terminal. A /status is read from
// exporters (over plain HTTP, or from a compromised member, or repeating a hostile ovsdb-server's
// words): an ESC, a CR or a C1 control in a member ID would retitle the terminal, clear the
// screen or redraw the line the operator is about to copy. Pure.

#include <string>
#include <string_view>

#include "consensus/member_report.h"

namespace ovn_raft {

// `text` as valid UTF-8 with every control character written out as an escape: bytes below
// 0x20 (newline and tab too: a value stays on its line) and DEL as \xNN, the C1 controls and
// the bidirectional overrides (which reorder what the terminal shows) as \uNNNN, and the
// backslash itself as \\, so that what is printed reads back unambiguously.
std::string TerminalText(std::string_view text);

// Every string of `report` through TerminalText.
void MakeTerminalSafe(MemberReport& report);

}  // namespace ovn_raft
