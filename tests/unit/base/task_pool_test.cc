#include "base/task_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace ovn_raft {
namespace {

TEST(TaskPoolTest, RunsOnItsOwnThreadsAndWaits) {
  TaskPool pool(2);
  std::mutex mu;
  std::set<std::thread::id> ran_on;
  std::vector<std::thread> callers;
  std::atomic<int> done{0};
  for (int i = 0; i < 16; ++i) {
    callers.emplace_back([&] {
      int value = 0;
      pool.Run([&] {
        value = 1;
        const std::lock_guard<std::mutex> lock(mu);
        ran_on.insert(std::this_thread::get_id());
      });
      EXPECT_EQ(value, 1);  // Run returned after the task ended
      ++done;
    });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(done.load(), 16);
  EXPECT_LE(ran_on.size(), 2u);  // never on the callers' threads: at most the pool's two
  EXPECT_EQ(ran_on.count(std::this_thread::get_id()), 0u);
}

// With no threads of its own, a task runs on the caller's thread, exceptions and all.
TEST(TaskPoolTest, WithoutThreadsATaskRunsOnItsCaller) {
  TaskPool pool(0);
  std::thread::id ran_on;
  pool.Run([&] { ran_on = std::this_thread::get_id(); });
  EXPECT_EQ(ran_on, std::this_thread::get_id());
  EXPECT_THROW(pool.Run([] { throw std::runtime_error("boom"); }), std::runtime_error);
}

TEST(TaskPoolTest, AnExceptionReachesTheCaller) {
  TaskPool pool(1);
  EXPECT_THROW(pool.Run([] { throw std::runtime_error("boom"); }), std::runtime_error);
  int after = 0;
  pool.Run([&] { after = 1; });  // the thread survived
  EXPECT_EQ(after, 1);
}

}  // namespace
}  // namespace ovn_raft
