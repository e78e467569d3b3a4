#pragma once

#include <cstddef>
#include <string_view>

namespace ovn_raft {

// Finds where one JSON-RPC message ends in a byte stream. OVSDB sends bare JSON objects one
// after another with no length or delimiter, so the end is where the outermost object closes.
// Incremental: Scan() resumes where the last call stopped, so a reply arriving in many small
// pieces costs linear time.
class JsonFramer {
 public:
  enum class State { kIncomplete, kComplete, kInvalid };

  // `buffer` is everything received so far (the same prefix on every call, grown at the end).
  State Scan(std::string_view buffer);
  // After kComplete: the length of the first message (leading whitespace included).
  std::size_t message_end() const { return pos_; }

 private:
  std::size_t pos_ = 0;
  int depth_ = 0;
  bool started_ = false;
  bool in_string_ = false;
  bool escape_ = false;
};

}  // namespace ovn_raft
