#include "log.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

namespace ovn_raft {
namespace {

std::atomic<LogLevel> g_level{LogLevel::kInfo};
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

}  // namespace

void SetLogLevel(LogLevel level) { g_level = level; }

std::string LogfmtValue(std::string_view value) {
  const bool bare = !value.empty() && value.find_first_of(" =\"\\\n\t") == std::string_view::npos;
  if (bare) return std::string(value);
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out + "\"";
}

void Log(LogLevel level, std::string_view message, std::initializer_list<LogField> fields) {
  if (level < g_level.load()) return;
  std::string line =
      "ts=" + Timestamp() + " level=" + LevelName(level) + " msg=" + LogfmtValue(message);
  for (const auto& [key, value] : fields) {
    line += ' ';
    line += key;
    line += '=';
    line += LogfmtValue(value);
  }
  line += '\n';
  const std::lock_guard<std::mutex> lock(g_mutex);
  std::fputs(line.c_str(), stderr);
}

}  // namespace ovn_raft
