#include "base/build_version.h"

namespace ovn_raft {

// Only this file is compiled with the two definitions (base/CMakeLists.txt): a new revision
// recompiles one file.
const char* const kBuildVersion = OVN_RAFT_VERSION;
const char* const kBuildRevision = OVN_RAFT_REVISION;

std::string VersionLine(std::string_view program) {
  std::string line(program);
  line += ' ';
  line += kBuildVersion;
  line += " (revision ";
  line += kBuildRevision;
  line += ')';
  return line;
}

}  // namespace ovn_raft
