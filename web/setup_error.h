#pragma once

// Why the exporter cannot start as configured (a web config file it cannot use, an address it
// cannot listen on): reported once at start-up and the process exits; never a read error of a
// database, which has its own codes (ovsdb/read_error.h).

#include <string>

namespace ovn_raft {

struct SetupError {
  std::string message;
};

}  // namespace ovn_raft
