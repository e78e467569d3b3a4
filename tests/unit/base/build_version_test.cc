#include "base/build_version.h"

#include <gtest/gtest.h>

#include <string>

namespace ovn_raft {
namespace {

// Both programs print their version through this one line; the image test reads it back.
TEST(BuildVersionTest, TheVersionLineNamesTheProgramTheReleaseAndTheRevision) {
  const std::string line = VersionLine("ovn-raft-report");
  EXPECT_EQ(line, "ovn-raft-report " + std::string(kBuildVersion) + " (revision " +
                      std::string(kBuildRevision) + ")");
  EXPECT_NE(std::string(kBuildVersion), "");
  EXPECT_NE(std::string(kBuildRevision), "");
}

}  // namespace
}  // namespace ovn_raft
