#include "reader/round_progress.h"

#include <string>

namespace ovn_raft {

void RoundProgress::Begin(std::chrono::system_clock::time_point taken_at,
                          const std::vector<DatabaseTarget>& targets) {
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->taken_at = taken_at;
  snapshot->databases.resize(targets.size());
  for (std::size_t i = 0; i < targets.size(); ++i) snapshot->databases[i].target = targets[i];
  const std::lock_guard<std::mutex> lock(mu_);
  snapshot_ = std::move(snapshot);
  finished_.assign(targets.size(), false);
}

void RoundProgress::Finish(std::size_t index, DatabaseReading&& reading) {
  const std::lock_guard<std::mutex> lock(mu_);
  snapshot_->databases[index] = std::move(reading);
  finished_[index] = true;
}

std::shared_ptr<const Snapshot> RoundProgress::End() {
  const std::lock_guard<std::mutex> lock(mu_);
  ended_ = true;
  return snapshot_;
}

std::shared_ptr<const Snapshot> RoundProgress::Partial(std::chrono::milliseconds waited) const {
  const std::lock_guard<std::mutex> lock(mu_);
  if (!snapshot_ || ended_) return snapshot_;
  auto partial = std::make_shared<Snapshot>();
  partial->taken_at = snapshot_->taken_at;
  partial->databases.reserve(finished_.size());
  for (std::size_t i = 0; i < finished_.size(); ++i) {
    if (finished_[i]) {
      partial->databases.push_back(snapshot_->databases[i]);
      continue;
    }
    DatabaseReading& r = partial->databases.emplace_back();
    r.target = snapshot_->databases[i].target;
    r.status_error = Error{ErrorCode::kScrapeTimeout,
                           "still being read when the scraper's deadline came, after " +
                               std::to_string(waited.count()) + " ms"};
    r.duration_seconds = std::chrono::duration<double>(waited).count();
    // Its server has not answered in that time: a lower bound of how late it answers.
    r.response_seconds = r.duration_seconds;
  }
  return partial;
}

}  // namespace ovn_raft
