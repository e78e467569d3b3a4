#pragma once

// One line per event, logfmt, to stderr: ts=... level=... msg="..." key=value ...
// Thread-safe.

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "config.h"

namespace ovn_raft {

using LogField = std::pair<std::string_view, std::string>;

void SetLogLevel(LogLevel level);
void Log(LogLevel level, std::string_view message, std::initializer_list<LogField> fields = {});

// logfmt value quoting: bare when safe, otherwise quoted with \" and \\ escaped.
std::string LogfmtValue(std::string_view value);

}  // namespace ovn_raft
