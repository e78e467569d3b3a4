#include "web/source_limiter.h"

#include <algorithm>
#include <utility>

#include "web/source_key.h"

namespace ovn_raft {

int SourceLimiter::ShareOf(int workers) { return std::max(4, workers / 4); }

SourceLimiter::Slot::Slot(SourceLimiter& limiter, std::string address)
    : limiter_(limiter), source_(SourceKey(address)) {
  const std::lock_guard<std::mutex> lock(limiter_.mu_);
  int& n = limiter_.in_flight_[source_];
  admitted_ = n < limiter_.max_;
  if (admitted_) ++n;
  if (n == 0) limiter_.in_flight_.erase(source_);
}

SourceLimiter::Slot::~Slot() {
  if (!admitted_) return;
  const std::lock_guard<std::mutex> lock(limiter_.mu_);
  const auto it = limiter_.in_flight_.find(source_);
  if (it != limiter_.in_flight_.end() && --it->second == 0) limiter_.in_flight_.erase(it);
}

}  // namespace ovn_raft
