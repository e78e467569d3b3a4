#include "reader/read_coordinator.h"

#include <vector>

#include "cli/log.h"

namespace ovn_raft {

ReadCoordinator::ReadCoordinator(ReadFn read, std::chrono::milliseconds min_interval)
    : read_(std::move(read)), min_interval_(min_interval) {}

std::shared_ptr<const Snapshot> ReadCoordinator::Get(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  if (latest_ && min_interval_.count() > 0 && Clock::now() - latest_started_ < min_interval_) {
    return latest_;
  }
  if (in_flight_) {
    const std::uint64_t round = rounds_;
    done_.wait(lock, [&] { return rounds_ != round; });
    return latest_;
  }
  in_flight_ = true;
  const auto started = Clock::now();
  lock.unlock();

  // The read path returns its errors as values; nothing here throws but allocation.
  const auto snapshot = std::make_shared<const Snapshot>(read_(timeout));

  // Log transitions only (failing, failing differently, recovered): a database that stays
  // down for hours must not write a line per scrape.
  struct Event {
    LogLevel level;
    std::string db, reason, message;
  };
  std::vector<Event> events;
  lock.lock();
  for (const auto& db : snapshot->databases) {
    const auto error = db.primary_error();
    const std::string reason = error ? ErrorCodeName(error->code) : "";
    if (error) ++errors_[{db.target.name, reason}];
    std::string& last = last_reason_[db.target.name];
    if (reason != last) {
      events.push_back(error ? Event{LogLevel::kWarn, db.target.name, reason, error->message}
                             : Event{LogLevel::kInfo, db.target.name, "", "recovered"});
    } else if (error) {
      events.push_back(Event{LogLevel::kDebug, db.target.name, reason, error->message});
    }
    last = reason;
  }
  latest_ = snapshot;
  latest_started_ = started;
  in_flight_ = false;
  ++rounds_;
  lock.unlock();
  done_.notify_all();

  for (const auto& e : events) {
    if (e.reason.empty()) {
      Log(e.level, "database read recovered", {{"db", e.db}});
    } else {
      Log(e.level, "database read failed",
          {{"db", e.db}, {"reason", e.reason}, {"error", e.message}});
    }
  }
  return snapshot;
}

ErrorCounts ReadCoordinator::errors() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return errors_;
}

std::uint64_t ReadCoordinator::rounds() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return rounds_;
}

}  // namespace ovn_raft
