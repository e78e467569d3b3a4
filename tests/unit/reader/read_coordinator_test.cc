#include "reader/read_coordinator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace ovn_raft {
namespace {

using namespace std::chrono_literals;

// A read that reports no progress: the whole round at its end.
template <typename Read>
ReadCoordinator::ReadFn Whole(Read read) {
  return [read](RoundProgress&) mutable { return std::make_shared<const Snapshot>(read()); };
}

// A read that takes `delay` and counts how often it ran and how many ran at once.
struct CountingRead {
  std::chrono::milliseconds delay;
  std::atomic<int> calls{0};
  std::atomic<int> running{0};
  std::atomic<int> max_running{0};

  Snapshot operator()() {
    ++calls;
    const int now = ++running;
    int seen = max_running;
    while (now > seen && !max_running.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(delay);
    --running;
    Snapshot s;
    s.databases.resize(1);
    s.databases[0].target.name = "DB";
    s.databases[0].status_error = Error{ErrorCode::kTimeout, "slow"};
    return s;
  }
};

TEST(ReadCoordinatorTest, ConcurrentCallersShareOneRound) {
  CountingRead read{100ms};
  ReadCoordinator c(Whole([&] { return read(); }), 0ms);
  std::vector<std::thread> threads;
  std::vector<std::shared_ptr<const Snapshot>> got(20);
  for (int i = 0; i < 20; ++i) threads.emplace_back([&, i] { got[i] = c.Get(1s); });
  for (auto& t : threads) t.join();
  EXPECT_EQ(read.max_running, 1);
  EXPECT_LE(read.calls, 2);  // a thread that arrives after the first round ends starts another
  for (const auto& s : got) ASSERT_NE(s, nullptr);
}

TEST(ReadCoordinatorTest, MinIntervalReusesARecentRound) {
  CountingRead read{0ms};
  ReadCoordinator c(Whole([&] { return read(); }), 200ms);
  const auto first = c.Get(1s);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(c.Get(1s), first);
  EXPECT_EQ(read.calls, 1);
  std::this_thread::sleep_for(250ms);
  EXPECT_NE(c.Get(1s), first);
  EXPECT_EQ(read.calls, 2);
}

TEST(ReadCoordinatorTest, ZeroIntervalReadsEveryTime) {
  CountingRead read{0ms};
  ReadCoordinator c(Whole([&] { return read(); }), 0ms);
  for (int i = 0; i < 5; ++i) c.Get(1s);
  EXPECT_EQ(read.calls, 5);
  EXPECT_EQ(c.rounds(), 5u);
}

TEST(ReadCoordinatorTest, CountsErrorsOncePerRoundNotPerCaller) {
  CountingRead read{0ms};
  ReadCoordinator c(Whole([&] { return read(); }), 1h);
  for (int i = 0; i < 10; ++i) c.Get(1s);
  const auto errors = c.errors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors.at({"DB", "timeout"}), 1u);
}

// A watched file that cannot be stat'ed counts on its own, each round, whether or not the
// database itself was read.
TEST(ReadCoordinatorTest, CountsAnUnreadableDatabaseFileBesideTheRead) {
  int round = 0;
  ReadCoordinator c(Whole([&] {
                      Snapshot s;
                      s.databases.resize(1);
                      s.databases[0].target.name = "DB";
                      s.databases[0].status = ClusterStatus{};  // up
                      if (++round <= 2)
                        s.databases[0].file_error = Error{ErrorCode::kFileUnreadable, "gone"};
                      return s;
                    }),
                    0s);
  for (int i = 0; i < 3; ++i) c.Get(1s);
  const auto errors = c.errors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors.at({"DB", "file_unreadable"}), 2u);
}

}  // namespace
}  // namespace ovn_raft

namespace ovn_raft {
namespace {

// A read that throws (allocation can) ends its round: otherwise the round would stay in flight
// and every later scrape would wait for it forever.
TEST(ReadCoordinatorTest, AReadThatThrowsEndsItsRound) {
  std::atomic<int> calls{0};
  std::atomic<bool> waiter_asking{false};
  ReadCoordinator c(Whole([&]() -> Snapshot {
                      if (++calls == 1) {
                        // Fails once the waiter is asking: on a loaded machine a fixed head
                        // start would let it come after the round and start one of its own.
                        while (!waiter_asking) std::this_thread::sleep_for(1ms);
                        std::this_thread::sleep_for(300ms);
                        throw std::bad_alloc();
                      }
                      return Snapshot{};
                    }),
                    0ms);
  std::shared_ptr<const Snapshot> waited = std::make_shared<const Snapshot>();
  std::thread first([&] { EXPECT_THROW(c.Get(30s), std::bad_alloc); });
  while (calls == 0) std::this_thread::sleep_for(1ms);  // the first caller's round is reading
  std::chrono::steady_clock::duration took{};
  std::thread waiter([&] {
    waiter_asking = true;
    const auto start = std::chrono::steady_clock::now();
    waited = c.Get(10s);  // joins the failing round
    took = std::chrono::steady_clock::now() - start;
  });
  first.join();
  waiter.join();
  EXPECT_LT(took, 5s);            // woken when the round ended, not at its own deadline
  EXPECT_EQ(waited, nullptr);     // the round ended with no snapshot, and no earlier one exists
  EXPECT_NE(c.Get(1s), nullptr);  // the next scrape reads again
  EXPECT_EQ(calls, 2);
}

// A client's scrape-timeout header shortens its own wait, never the round everyone
// shares: the read runs to its end, and the impatient client, with nothing read yet (this read
// reports no progress), gets nullptr (503).
TEST(ReadCoordinatorTest, AShortClientWaitDoesNotShortenTheSharedRead) {
  ReadCoordinator c(Whole([&] {
                      std::this_thread::sleep_for(300ms);
                      return Snapshot{};
                    }),
                    0ms);
  std::shared_ptr<const Snapshot> patient, impatient = std::make_shared<const Snapshot>();
  std::thread a([&] { patient = c.Get(3s); });
  std::this_thread::sleep_for(30ms);
  const auto start = std::chrono::steady_clock::now();
  impatient = c.Get(100ms);
  const auto waited = std::chrono::steady_clock::now() - start;
  a.join();
  EXPECT_EQ(impatient, nullptr);
  EXPECT_GE(waited, 90ms);
  EXPECT_LT(waited, 250ms);
  ASSERT_NE(patient, nullptr);
}

// Two databases: the first read at once, the second after `slow`; reports its progress as the
// reader does. Records the thread each round ran on.
struct TwoDatabases {
  std::chrono::milliseconds slow;
  std::atomic<int> calls{0};
  std::atomic<std::thread::id> ran_on{};

  std::shared_ptr<const Snapshot> operator()(RoundProgress& progress) {
    ++calls;
    ran_on = std::this_thread::get_id();
    progress.Begin(std::chrono::system_clock::now(),
                   {{"Fast", "/f.ctl", "", ""}, {"Slow", "/s.ctl", "", ""}});
    DatabaseReading fast;
    fast.target = {"Fast", "/f.ctl", "", ""};
    fast.status = ClusterStatus{};
    progress.Finish(0, std::move(fast));
    std::this_thread::sleep_for(slow);
    DatabaseReading late;
    late.target = {"Slow", "/s.ctl", "", ""};
    late.status = ClusterStatus{};
    progress.Finish(1, std::move(late));
    return progress.End();
  }
};

// A scrape whose deadline comes before the round's end gets the databases read by then, the
// others not read in time (and counted so), and the round ends for the next scrape.
TEST(ReadCoordinatorTest, ALateScrapeGetsTheDatabasesReadSoFar) {
  TwoDatabases read{400ms};
  ReadCoordinator c([&](RoundProgress& p) { return read(p); }, 0ms, 2s);
  const auto start = std::chrono::steady_clock::now();
  const auto page = c.Get(100ms);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 300ms);
  ASSERT_NE(page, nullptr);
  ASSERT_EQ(page->databases.size(), 2u);
  EXPECT_TRUE(page->databases[0].up());
  EXPECT_FALSE(page->databases[1].up());
  ASSERT_TRUE(page->databases[1].status_error);
  EXPECT_EQ(page->databases[1].status_error->code, ErrorCode::kScrapeTimeout);
  EXPECT_EQ(page->databases[1].target.name, "Slow");
  EXPECT_EQ(c.errors().at({"Slow", "scrape_timeout"}), 1u);
  EXPECT_EQ(c.errors().count({"Fast", "scrape_timeout"}), 0u);
  // A patient scrape joins the same round and gets it whole.
  const auto whole = c.Get(2s);
  ASSERT_NE(whole, nullptr);
  EXPECT_TRUE(whole->databases[1].up());
  EXPECT_EQ(read.calls, 1);
  EXPECT_EQ(c.rounds(), 1u);
}

// Scrapes that come one after another while a slow round is in flight each leave at their own
// deadline: the round in flight blocks none of them.
TEST(ReadCoordinatorTest, ARoundInFlightBlocksNoScrapePastItsDeadline) {
  // Rounds far longer than a scrape's deadline, so that a loaded machine's scheduling delays
  // cannot pass for a scrape held until the round's end.
  TwoDatabases read{3000ms};
  ReadCoordinator c([&](RoundProgress& p) { return read(p); }, 0ms, 5s);
  for (int i = 0; i < 8; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const auto page = c.Get(300ms);
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_LT(took, 1500ms) << "scrape " << i;
    ASSERT_NE(page, nullptr) << "scrape " << i;
    EXPECT_TRUE(page->databases[0].up()) << "scrape " << i;
  }
  EXPECT_LE(read.calls, 2);  // 8 scrapes of 0.3 s, rounds of 3 s
}

// A caller that can wait for a whole round runs it on its own thread (no hand-over); one that
// cannot hands it to the coordinator's.
TEST(ReadCoordinatorTest, OnlyAnImpatientCallerHandsTheRoundOver) {
  TwoDatabases read{0ms};
  ReadCoordinator c([&](RoundProgress& p) { return read(p); }, 0ms, 1s);
  ASSERT_NE(c.Get(1s), nullptr);
  EXPECT_EQ(read.ran_on.load(), std::this_thread::get_id());
  const auto page = c.Get(500ms);
  ASSERT_NE(page, nullptr);
  EXPECT_TRUE(page->databases[1].up());  // a quick round is served whole
  EXPECT_NE(read.ran_on.load(), std::this_thread::get_id());
}

std::size_t Occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// What a database was found to be is said once per change, not per round; a clustered one, as
// expected, only when it was another; and a database without Raft counts no error.
TEST(ReadCoordinatorTest, TheModelIsLoggedOncePerChangeAndCountsNoError) {
  const std::vector<std::optional<DatabaseModel>> models = {DatabaseModel::kClustered,
                                                            DatabaseModel::kClustered,
                                                            DatabaseModel::kStandalone,
                                                            DatabaseModel::kStandalone,
                                                            std::nullopt,
                                                            DatabaseModel::kStandalone,
                                                            DatabaseModel::kRelay,
                                                            DatabaseModel::kRelay,
                                                            DatabaseModel::kClustered};
  std::size_t round = 0;
  ReadCoordinator c(Whole([&] {
                      Snapshot s;
                      s.databases.resize(2);
                      s.databases[0].target.name = "NB";
                      s.databases[0].model = models[round];
                      s.databases[1].target.name = "SB";  // clustered from the start
                      s.databases[1].model = DatabaseModel::kClustered;
                      ++round;
                      return s;
                    }),
                    0ms);
  ::testing::internal::CaptureStderr();
  for (std::size_t i = 0; i < models.size(); ++i) ASSERT_NE(c.Get(1s), nullptr);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(Occurrences(log, "NB is a standalone database"), 1u) << log;
  EXPECT_EQ(Occurrences(log, "NB is a relay database"), 1u) << log;
  EXPECT_EQ(Occurrences(log, "NB is a clustered database"), 1u) << log;  // the last change
  EXPECT_EQ(Occurrences(log, "SB is"), 0u) << log;
  for (const auto& [key, count] : c.errors()) EXPECT_EQ(count, 0u) << key.first << key.second;
}

}  // namespace
}  // namespace ovn_raft
