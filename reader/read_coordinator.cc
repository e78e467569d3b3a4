#include "reader/read_coordinator.h"

#include <exception>
#include <optional>
#include <vector>

#include "base/log.h"
#include "reader/model_reading.h"

namespace ovn_raft {

ReadCoordinator::ReadCoordinator(ReadFn read, std::chrono::milliseconds min_interval,
                                 std::chrono::milliseconds round_limit)
    : read_(std::move(read)), min_interval_(min_interval), round_limit_(round_limit) {}

ReadCoordinator::~ReadCoordinator() {
  {
    const std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  handed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::shared_ptr<const Snapshot> ReadCoordinator::Get(std::chrono::milliseconds wait) {
  const auto asked = Clock::now();
  std::unique_lock<std::mutex> lock(mu_);
  if (latest_ && min_interval_.count() > 0 && asked - latest_started_ < min_interval_) {
    return latest_;
  }
  if (!in_flight_) {
    in_flight_ = true;
    progress_ = std::make_shared<RoundProgress>();
    started_ = asked;
    if (wait >= round_limit_) {
      // This caller can wait for the whole round: it runs it, sparing a hand-over.
      const auto progress = progress_;
      lock.unlock();
      return RunRound(progress, asked);
    }
    handed_round_ = true;
    if (!thread_.joinable()) {
      thread_ = std::thread([this] { Serve(); });
    }
    handed_.notify_one();
  }
  const std::uint64_t round = ended_;
  const auto progress = progress_;
  if (done_.wait_for(lock, wait, [&] { return ended_ != round; })) return latest_;
  lock.unlock();
  return Late(*progress,
              std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - asked));
}

std::shared_ptr<const Snapshot> ReadCoordinator::RunRound(
    const std::shared_ptr<RoundProgress>& progress, Clock::time_point started) {
  // The read returns its errors as values, but allocation can throw: the round ends whatever
  // happens, or every later scrape would wait for it forever.
  struct Guard {
    ReadCoordinator* self;
    bool ended = false;
    ~Guard() {
      if (!ended) self->EndRound(nullptr, {});
    }
  } guard{this};
  auto snapshot = read_(*progress);
  guard.ended = true;
  EndRound(snapshot, started);
  return snapshot;
}

void ReadCoordinator::Serve() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    handed_.wait(lock, [&] { return handed_round_ || stopping_; });
    if (!handed_round_) return;
    handed_round_ = false;
    const auto progress = progress_;
    const auto started = started_;
    lock.unlock();
    try {
      RunRound(progress, started);
    } catch (const std::exception& e) {
      Log(LogLevel::kError, "read round failed", {{"error", e.what()}});
    }
    lock.lock();
  }
}

// What a caller whose deadline came first serves, each database still being read counted.
std::shared_ptr<const Snapshot> ReadCoordinator::Late(const RoundProgress& progress,
                                                      std::chrono::milliseconds waited) {
  auto partial = progress.Partial(waited);
  if (!partial) return nullptr;
  const std::lock_guard<std::mutex> lock(mu_);
  for (const auto& db : partial->databases) {
    if (db.status_error && db.status_error->code == ErrorCode::kScrapeTimeout) {
      ++errors_[{db.target.name, ErrorCodeName(ErrorCode::kScrapeTimeout)}];
    }
  }
  return partial;
}

void ReadCoordinator::EndRound(std::shared_ptr<const Snapshot> snapshot,
                               Clock::time_point started) {
  // Log transitions only (failing, failing differently, recovered; another model): a database
  // that stays down for hours, or standalone for ever, must not write a line per scrape.
  struct Event {
    LogLevel level;
    std::string db, reason, message;
    bool file = false;                                  // about the database file, not the database
    std::optional<DatabaseModel> model = std::nullopt;  // what the database was found to be
  };
  std::vector<Event> events;
  {
    const std::lock_guard<std::mutex> lock(mu_);
    for (const auto& db : snapshot ? snapshot->databases : std::vector<DatabaseReading>{}) {
      const auto error = db.primary_error();
      const std::string reason = error ? ErrorCodeName(error->code) : "";
      // Every reply the round's budget refused counts, not only one that failed the database.
      if (error && error->code != ErrorCode::kRoundBudgetExceeded)
        ++errors_[{db.target.name, reason}];
      if (db.budget_refusals > 0) {
        errors_[{db.target.name, ErrorCodeName(ErrorCode::kRoundBudgetExceeded)}] +=
            db.budget_refusals;
      }
      std::string& last = last_reason_[db.target.name];
      if (reason != last) {
        events.push_back(error ? Event{LogLevel::kWarn, db.target.name, reason, error->message}
                               : Event{LogLevel::kInfo, db.target.name, "", "recovered"});
      } else if (error) {
        events.push_back(Event{LogLevel::kDebug, db.target.name, reason, error->message});
      }
      last = reason;
      // A clustered database is what the exporter expects: said only when it was another.
      if (db.model) {
        const auto [seen, first] = model_.try_emplace(db.target.name, *db.model);
        if (first ? *db.model != DatabaseModel::kClustered : seen->second != *db.model) {
          events.push_back(Event{LogLevel::kInfo, db.target.name, "", "", false, db.model});
        }
        seen->second = *db.model;
      }
      // The watched file fails on its own: a database may be up with its file unreadable.
      if (db.file_error) ++errors_[{db.target.name, ErrorCodeName(db.file_error->code)}];
      bool& file_failing = file_failing_[db.target.name];
      if (db.file_error && !file_failing) {
        events.push_back(Event{LogLevel::kWarn, db.target.name, ErrorCodeName(db.file_error->code),
                               db.file_error->message, true});
      } else if (!db.file_error && file_failing) {
        events.push_back(Event{LogLevel::kInfo, db.target.name, "", "recovered", true});
      }
      file_failing = db.file_error.has_value();
    }
    if (snapshot) {
      latest_ = std::move(snapshot);
      latest_started_ = started;
      ++rounds_;
    }
    in_flight_ = false;
    progress_.reset();
    ++ended_;
  }
  done_.notify_all();
  for (const auto& e : events) {
    if (e.model) {
      Log(e.level, ModelFinding(e.db, *e.model),
          {{"db", e.db}, {"model", DatabaseModelName(*e.model)}});
    } else if (e.file) {
      if (e.reason.empty()) {
        Log(e.level, "database file readable again", {{"db", e.db}});
      } else {
        Log(e.level, "database file unreadable",
            {{"db", e.db}, {"reason", e.reason}, {"error", e.message}});
      }
    } else if (e.reason.empty()) {
      Log(e.level, "database read recovered", {{"db", e.db}});
    } else {
      Log(e.level, "database read failed",
          {{"db", e.db}, {"reason", e.reason}, {"error", e.message}});
    }
  }
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
