#include "support/bcrypt.h"

#include <crypt.h>

#include <stdexcept>

namespace ovn_raft::testing {

std::string Bcrypt(const std::string& password, unsigned long cost) {
  char salt[CRYPT_GENSALT_OUTPUT_SIZE];
  if (crypt_gensalt_rn("$2b$", cost, nullptr, 0, salt, sizeof(salt)) == nullptr) {
    throw std::runtime_error("crypt_gensalt_rn failed");
  }
  crypt_data data{};
  const char* hash = crypt_r(password.c_str(), salt, &data);
  if (hash == nullptr || hash[0] == '*') throw std::runtime_error("crypt_r failed");
  return hash;
}

}  // namespace ovn_raft::testing
