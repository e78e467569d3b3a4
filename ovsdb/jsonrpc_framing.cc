#include "ovsdb/jsonrpc_framing.h"

namespace ovn_raft {

JsonFramer::State JsonFramer::Scan(std::string_view buffer) {
  for (; pos_ < buffer.size(); ++pos_) {
    const char c = buffer[pos_];
    if (!started_) {
      if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
      // Every JSON-RPC message is an object; anything else is garbage.
      if (c != '{') return State::kInvalid;
      started_ = true;
      depth_ = 1;
      continue;
    }
    if (in_string_) {
      if (escape_) {
        escape_ = false;
      } else if (c == '\\') {
        escape_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string_ = true;
        break;
      case '{':
      case '[':
        ++depth_;
        break;
      case '}':
      case ']':
        if (--depth_ == 0) {
          ++pos_;
          return State::kComplete;
        }
        break;
      default:
        break;
    }
  }
  return State::kIncomplete;
}

}  // namespace ovn_raft
