#include "metrics/main_loop_metrics.h"

#include <gtest/gtest.h>

#include "metrics/text_exposition.h"

namespace ovn_raft {
namespace {

std::string Page(const DatabaseReading& r) {
  FamilyBuilder b;
  AddMainLoopMetrics(r, b);
  return TextExposition(b.Take());
}

TEST(MainLoopMetricsTest, AnsweredWithTheCounter) {
  DatabaseReading r;
  r.target.name = "OVN_Northbound";
  r.response_seconds = 1.5;
  r.long_poll_intervals = 3;
  const std::string page = Page(r);
  EXPECT_NE(page.find("# TYPE ovn_raft_ovsdb_server_response_seconds gauge\n"
                      "ovn_raft_ovsdb_server_response_seconds{db=\"OVN_Northbound\"} 1.5\n"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("# TYPE ovn_raft_ovsdb_server_long_poll_intervals_total counter\n"
                      "ovn_raft_ovsdb_server_long_poll_intervals_total{db=\"OVN_Northbound\"} 3\n"),
            std::string::npos)
      << page;
}

// A release without the counter has no series for it, not a zero that would read as "no
// stall"; a server that did not answer has neither.
TEST(MainLoopMetricsTest, WhatIsNotKnownHasNoSeries) {
  DatabaseReading r;
  r.target.name = "OVN_Southbound";
  r.response_seconds = 0.002;
  EXPECT_EQ(Page(r).find("long_poll_intervals"), std::string::npos);
  r.response_seconds.reset();
  EXPECT_EQ(Page(r), "");
}

}  // namespace
}  // namespace ovn_raft
