#pragma once

// A bcrypt hash as `htpasswd -nB` writes it, for web configs' basic_auth_users. The cost is low
// by default: tests check behaviour, not the hash's strength.

#include <string>

namespace ovn_raft::testing {

std::string Bcrypt(const std::string& password, unsigned long cost = 5);

}  // namespace ovn_raft::testing
