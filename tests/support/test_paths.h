#pragma once

// Where the tests find the source tree, the scripts and the built programs. Defined in a file
// tests/CMakeLists.txt generates into the build tree, the only test object that depends on
// where the clone is.

#include <string>

namespace ovn_raft::testing {

std::string SourceDir();
std::string ScriptsDir();
std::string ExporterBinary();
// Empty when ovn-raft-report is not built (OVN_RAFT_BUILD_REPORT=OFF).
std::string ReportBinary();

}  // namespace ovn_raft::testing
