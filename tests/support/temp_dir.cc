#include "support/temp_dir.h"

#include <stdlib.h>

#include <stdexcept>
#include <system_error>

namespace ovn_raft::testing {

TempDir::TempDir(const std::string& prefix) {
  std::string tmpl = "/tmp/" + prefix + ".XXXXXX";
  if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp " + tmpl + " failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  // Never throws from a destructor: a file a test left busy is reported by no one.
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace ovn_raft::testing
