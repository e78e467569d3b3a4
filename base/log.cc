#include "base/log.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

#include "base/utf8.h"

namespace ovn_raft {
namespace {

std::atomic<LogLevel> g_level{LogLevel::kInfo};
std::atomic<LogFormat> g_format{LogFormat::kLogfmt};
std::mutex g_mutex;

const char* LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarn:
      return "warn";
    case LogLevel::kError:
      return "error";
  }
  return "info";
}

std::string Timestamp() {
  const auto now = std::chrono::system_clock::now();
  const auto t = std::chrono::system_clock::to_time_t(now);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return buf;
}

// A value from outside (an ovsdb error, a peer's message) can be long: a log line stays short.
constexpr std::size_t kMaxLogValue = 1024;

bool IsControl(char c) {
  return static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) == 0x7f;
}

// logfmt: bare when safe, otherwise quoted with \" \\ \n \r \t escaped and every other control
// byte as \u00XX (as go-logfmt): a NUL would cut the line, a CR or ESC rewrite the terminal.
void AppendLogfmt(std::string_view value, std::string& out) {
  const bool bare = !value.empty() && value.size() <= kMaxLogValue &&
                    value.find_first_of(" =\"\\") == std::string_view::npos &&
                    std::none_of(value.begin(), value.end(), IsControl) &&
                    std::none_of(value.begin(), value.end(),
                                 [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  if (bare) {
    out += value;
    return;
  }
  out += '"';
  // Cut on a character boundary and made valid: a log line is UTF-8 whatever the value was.
  for (char c : ValidUtf8(Utf8Prefix(value, kMaxLogValue))) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (IsControl(c)) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x",
                    static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  if (value.size() > kMaxLogValue) out += "... (" + std::to_string(value.size()) + " bytes)";
  out += '"';
}

void AppendJsonString(std::string_view value, std::string& out) {
  out += '"';
  // Cut on a character boundary and made valid: a JSON reader refuses the line otherwise.
  for (char c : ValidUtf8(Utf8Prefix(value, kMaxLogValue))) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  if (value.size() > kMaxLogValue) out += "... (" + std::to_string(value.size()) + " bytes)";
  out += '"';
}

}  // namespace

void SetLogLevel(LogLevel level) { g_level = level; }
void SetLogFormat(LogFormat format) { g_format = format; }

std::string FormatLogLine(LogFormat format, std::string_view ts, LogLevel level,
                          std::string_view message, std::initializer_list<LogField> fields) {
  std::string line;
  auto field = [&](std::string_view key, std::string_view value) {
    if (format == LogFormat::kJson) {
      line += line.empty() ? '{' : ',';
      AppendJsonString(key, line);
      line += ':';
      AppendJsonString(value, line);
    } else {
      if (!line.empty()) line += ' ';
      line += key;
      line += '=';
      AppendLogfmt(value, line);
    }
  };
  field("ts", ts);
  field("level", LevelName(level));
  field("msg", message);
  for (const auto& [key, value] : fields) field(key, value);
  if (format == LogFormat::kJson) line += '}';
  return line;
}

void Log(LogLevel level, std::string_view message, std::initializer_list<LogField> fields) {
  if (level < g_level.load()) return;
  const std::string line =
      FormatLogLine(g_format.load(), Timestamp(), level, message, fields) + '\n';
  const std::lock_guard<std::mutex> lock(g_mutex);
  std::fputs(line.c_str(), stderr);
}

}  // namespace ovn_raft
