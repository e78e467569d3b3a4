// The README's flag table of ovn-raft-report says what its flag table declares.

#include "support/readme_flags.h"

#include <gtest/gtest.h>

#include "report/report_command.h"

namespace ovn_raft {
namespace {

TEST(ReadmeFlags, TheReportsTableIsItsFlagTable) {
  testing::ExpectSameFlags("## ovn-raft-report: the cluster at a glance", ReportFlags(),
                           "OVN_RAFT_REPORT_");
}

}  // namespace
}  // namespace ovn_raft
