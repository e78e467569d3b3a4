// The flag table of ovn-raft-report's manual (docs/report.md) says what its flag table declares.

#include "support/readme_flags.h"

#include <gtest/gtest.h>

#include "report/report_command.h"

namespace ovn_raft {
namespace {

TEST(ReadmeFlags, TheReportsTableIsItsFlagTable) {
  testing::ExpectSameFlags("docs/report.md", "## ovn-raft-report: the cluster at a glance",
                           ReportFlags(), "OVN_RAFT_REPORT_");
}

}  // namespace
}  // namespace ovn_raft
