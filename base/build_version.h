#pragma once

// The release and the git revision this build is of (CMake's project version and the
// revision CMake found), defined in one place for both programs and every page that shows them.

#include <string>
#include <string_view>

namespace ovn_raft {

extern const char* const kBuildVersion;
extern const char* const kBuildRevision;

// What --version prints: "PROGRAM VERSION (revision REVISION)", without the newline.
std::string VersionLine(std::string_view program);

}  // namespace ovn_raft
