#pragma once

// Every string a /status put into a MemberReport, values and map keys alike, rewritten by one
// function: how the report makes all of them terminal-safe and credential-free, with no field
// forgotten. Pure.

#include <functional>
#include <string>

#include "consensus/member_report.h"

namespace ovn_raft {

void RewriteStrings(MemberReport& r, const std::function<std::string(const std::string&)>& f);

}  // namespace ovn_raft
