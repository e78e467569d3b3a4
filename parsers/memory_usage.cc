#include "parsers/memory_usage.h"

#include "base/strings.h"

namespace ovn_raft {
namespace {

constexpr const char* kNames[kMemoryKeyCount] = {
    "atoms",       "cells",           "monitors",
    "json-caches", "sessions",        "triggers",
    "backlog",     "raft-backlog-kB", "raft-connections",
    "raft-log",    "txn-history",     "txn-history-atoms",
    "n-weak-refs",
};

constexpr std::size_t kMaxKeyLength = 64;

bool KeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

}  // namespace

const char* MemoryKeyName(MemoryKey key) { return kNames[static_cast<std::size_t>(key)]; }

MemoryUsage ParseMemoryUsage(std::string_view reply) {
  MemoryUsage usage;
  while (!reply.empty()) {
    const auto end = reply.find_first_of(" \t\r\n");
    const std::string_view token = reply.substr(0, end);
    reply.remove_prefix(end == std::string_view::npos ? reply.size() : end + 1);
    if (token.empty()) continue;
    const auto colon = token.rfind(':');
    const std::string_view key = colon == std::string_view::npos ? token : token.substr(0, colon);
    const auto value =
        colon == std::string_view::npos ? std::nullopt : ParseUint(token.substr(colon + 1));
    bool key_ok = !key.empty() && key.size() <= kMaxKeyLength;
    for (char c : key) key_ok = key_ok && KeyChar(c);
    if (!value || !key_ok) {
      ++usage.malformed;
      continue;
    }
    bool known = false;
    for (std::size_t i = 0; i < kMemoryKeyCount && !known; ++i) {
      if (key == kNames[i]) {
        usage.values[i] = *value;
        known = true;
      }
    }
    if (known) continue;
    if (usage.unknown_keys.size() < kMaxUnknownMemoryKeys) {
      usage.unknown_keys.emplace_back(key);
    } else {
      ++usage.unknown_dropped;
    }
  }
  return usage;
}

}  // namespace ovn_raft
