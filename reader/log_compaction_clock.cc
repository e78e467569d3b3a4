#include "reader/log_compaction_clock.h"

namespace ovn_raft {

LogCompactionClock::TimePoint LogCompactionClock::Observe(TimePoint now, std::uint64_t first,
                                                          std::optional<std::uint64_t> next) {
  const bool empty = next == first;
  if (empty || first_ != first) since_ = now;
  first_ = first;
  return since_;
}

}  // namespace ovn_raft
