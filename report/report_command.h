#pragma once

#include <string>
#include <vector>

#include "cli/flags.h"

namespace ovn_raft {

// `ovn-raft-report [FLAGS] URL...`: fetches /status from the exporter of every member (URL is
// an exporter's base, e.g. http://10.0.0.1:10476) and prints, per database, what each member
// sees and whether they agree (a standalone or relay database on a line of its own, outside the
// analysis). Exit 0 when every member answered and agrees, 1 otherwise, 2 on bad flags, 3 when
// a URL is untrusted.
int ReportCommand(const std::vector<std::string>& args, const EnvLookup& env);

// The report's flags, with their defaults as --help and the README show them.
std::vector<FlagSpec> ReportFlags();

// The manual page, from the same flag table (the hidden --help-man prints it).
std::string ReportManPage();

}  // namespace ovn_raft
