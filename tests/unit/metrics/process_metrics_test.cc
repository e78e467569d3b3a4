#include "metrics/process_metrics.h"

#include <gtest/gtest.h>

#include <chrono>

namespace ovn_raft {
namespace {

TEST(ProcessMetricsTest, ParsesProcStatWithSpacesInName) {
  // Fields: pid (comm) state ppid ... utime=14 stime=15 ... starttime=22 vsize=23 rss=24.
  const std::string stat =
      "4242 (ovn raft) S 1 4242 4242 0 -1 4194560 500 0 0 0 250 50 0 0 20 0 9 0 1000 "
      "104857600 2560 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
  const auto p = ParseProcStat(stat, 100, 4096, 1'700'000'000);
  ASSERT_TRUE(p.has_value());
  EXPECT_DOUBLE_EQ(p->cpu_seconds, 3.0);
  EXPECT_DOUBLE_EQ(p->start_time_seconds, 1'700'000'010.0);
  EXPECT_DOUBLE_EQ(p->virtual_memory_bytes, 104857600.0);
  EXPECT_DOUBLE_EQ(p->resident_memory_bytes, 2560.0 * 4096);
}

TEST(ProcessMetricsTest, RejectsTruncatedStat) {
  EXPECT_FALSE(ParseProcStat("1 (x) S 1 2", 100, 4096, 0).has_value());
  EXPECT_FALSE(ParseProcStat("", 100, 4096, 0).has_value());
}

TEST(ProcessMetricsTest, LiveProcessHasMemoryAndFds) {
  const auto families = CollectProcessMetrics();
  bool rss = false, fds = false;
  for (const auto& f : families) {
    if (f.name == "process_resident_memory_bytes") rss = f.metric.at(0).gauge.value > 0;
    if (f.name == "process_open_fds") fds = f.metric.at(0).gauge.value >= 3;
  }
  EXPECT_TRUE(rss);
  EXPECT_TRUE(fds);
}

TEST(ProcessMetricsTest, ServesTheWallClock) {
  const auto seconds = [] {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  const double before = seconds();
  const auto families = CollectProcessMetrics();
  const double after = seconds();
  int found = 0;
  for (const auto& f : families) {
    if (f.name != "ovn_raft_exporter_time_seconds") continue;
    ++found;
    ASSERT_EQ(f.metric.size(), 1u);
    EXPECT_EQ(f.type, prometheus::MetricType::Gauge);
    EXPECT_TRUE(f.metric.at(0).label.empty());
    EXPECT_GE(f.metric.at(0).gauge.value, before);
    EXPECT_LE(f.metric.at(0).gauge.value, after);
  }
  EXPECT_EQ(found, 1);
}

}  // namespace
}  // namespace ovn_raft
