#pragma once

// The memory one read round may spend on replies. The reply cap bounds each reply; a round makes
// several calls per database (cluster/status, the _Server select, memory/show, the storage
// status, version), each answered at the cap by a hostile server, and every reply is held, parsed,
// until the round ends. A budget shared by the calls of one database bounds them together:
// what does not fit is refused (kRoundBudgetExceeded) and counted. Not thread-safe: a round
// runs on one thread.

#include <cstddef>
#include <cstdint>

namespace ovn_raft {

class ReplyBudget {
 public:
  explicit ReplyBudget(std::size_t bytes) : limit_(bytes), left_(bytes) {}
  // Takes `bytes` from what is left; false (and nothing taken) when they do not fit.
  bool Take(std::size_t bytes) {
    if (bytes > left_) return false;
    left_ -= bytes;
    return true;
  }
  // Gives back `bytes` taken for messages read and dropped (notifications before the reply):
  // the budget bounds what is held, and a dropped message is no longer held.
  void Give(std::size_t bytes) { left_ = bytes > limit_ - left_ ? limit_ : left_ + bytes; }
  void CountRefusal() { ++refusals_; }
  std::size_t limit() const { return limit_; }
  std::uint64_t refusals() const { return refusals_; }

 private:
  std::size_t limit_;
  std::size_t left_;
  std::uint64_t refusals_ = 0;
};

}  // namespace ovn_raft
