#pragma once

// One line per event to stderr, as the Prometheus exporters log (--log.level, --log.format):
//   logfmt: ts=... level=... msg="..." key=value ...
//   json:   {"ts":"...","level":"...","msg":"...","key":"value",...}
// Thread-safe.

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace ovn_raft {

enum class LogLevel { kDebug, kInfo, kWarn, kError };
enum class LogFormat { kLogfmt, kJson };

using LogField = std::pair<std::string_view, std::string>;

void SetLogLevel(LogLevel level);
void SetLogFormat(LogFormat format);
void Log(LogLevel level, std::string_view message, std::initializer_list<LogField> fields = {});

// The line Log writes (without the newline), for a given timestamp. Pure.
std::string FormatLogLine(LogFormat format, std::string_view ts, LogLevel level,
                          std::string_view message, std::initializer_list<LogField> fields);

}  // namespace ovn_raft
