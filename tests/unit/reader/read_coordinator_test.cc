#include "reader/read_coordinator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace ovn_raft {
namespace {

using namespace std::chrono_literals;

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
  ReadCoordinator c([&] { return read(); }, 0ms);
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
  ReadCoordinator c([&] { return read(); }, 200ms);
  const auto first = c.Get(1s);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(c.Get(1s), first);
  EXPECT_EQ(read.calls, 1);
  std::this_thread::sleep_for(250ms);
  EXPECT_NE(c.Get(1s), first);
  EXPECT_EQ(read.calls, 2);
}

TEST(ReadCoordinatorTest, ZeroIntervalReadsEveryTime) {
  CountingRead read{0ms};
  ReadCoordinator c([&] { return read(); }, 0ms);
  for (int i = 0; i < 5; ++i) c.Get(1s);
  EXPECT_EQ(read.calls, 5);
  EXPECT_EQ(c.rounds(), 5u);
}

TEST(ReadCoordinatorTest, CountsErrorsOncePerRoundNotPerCaller) {
  CountingRead read{0ms};
  ReadCoordinator c([&] { return read(); }, 1h);
  for (int i = 0; i < 10; ++i) c.Get(1s);
  const auto errors = c.errors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors.at({"DB", "timeout"}), 1u);
}

// A watched file that cannot be stat'ed counts on its own, each round, whether or not the
// database itself was read.
TEST(ReadCoordinatorTest, CountsAnUnreadableDatabaseFileBesideTheRead) {
  int round = 0;
  ReadCoordinator c(
      [&] {
        Snapshot s;
        s.databases.resize(1);
        s.databases[0].target.name = "DB";
        s.databases[0].status = ClusterStatus{};  // up
        if (++round <= 2) s.databases[0].file_error = Error{ErrorCode::kFileUnreadable, "gone"};
        return s;
      },
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
  ReadCoordinator c(
      [&]() -> Snapshot {
        if (++calls == 1) {
          std::this_thread::sleep_for(100ms);
          throw std::bad_alloc();
        }
        return Snapshot{};
      },
      0ms);
  std::shared_ptr<const Snapshot> waited = std::make_shared<const Snapshot>();
  std::thread first([&] { EXPECT_THROW(c.Get(1s), std::bad_alloc); });
  std::this_thread::sleep_for(20ms);
  const auto start = std::chrono::steady_clock::now();
  std::thread waiter([&] { waited = c.Get(1s); });  // joins the failing round
  first.join();
  waiter.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 500ms);
  EXPECT_EQ(waited, nullptr);     // the round ended with no snapshot, and no earlier one exists
  EXPECT_NE(c.Get(1s), nullptr);  // the next scrape reads again
  EXPECT_EQ(calls, 2);
}

// A client's scrape-timeout header shortens its own wait, never the round everyone
// shares: the read runs to its end, and the impatient client gets nullptr (503).
TEST(ReadCoordinatorTest, AShortClientWaitDoesNotShortenTheSharedRead) {
  ReadCoordinator c(
      [&] {
        std::this_thread::sleep_for(300ms);
        return Snapshot{};
      },
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

}  // namespace
}  // namespace ovn_raft
