#include "report/advised_command.h"

#include <array>
#include <cctype>

namespace ovn_raft {
namespace {

bool IsHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// Hex digits, 1 to 32 of them, or the 8-4-4-4-12 form of a UUID.
bool IsServerId(const std::string& id) {
  if (id.size() == 36) {
    for (std::size_t i = 0; i < id.size(); ++i) {
      const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash ? id[i] != '-' : !IsHex(id[i])) return false;
    }
    return true;
  }
  if (id.empty() || id.size() > 32) return false;
  for (char c : id) {
    if (!IsHex(c)) return false;
  }
  return true;
}

bool IsKnownDatabase(const std::string& db) {
  static const std::array<const char*, 4> kDatabases = {"OVN_Northbound", "OVN_Southbound",
                                                        "OVN_IC_Northbound", "OVN_IC_Southbound"};
  for (const char* known : kDatabases) {
    if (db == known) return true;
  }
  return false;
}

bool IsBareSafe(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '/' || c == '.' || c == '_' ||
         c == '-' || c == '+' || c == ':' || c == '@' || c == ',' || c == '=';
}

// The path as one shell word, or "" when it cannot be one safely.
std::string ShellWord(const std::string& path) {
  bool bare = true;
  for (char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u > 0x7E || c == '\\') return "";
    bare = bare && IsBareSafe(c);
  }
  if (bare) return path;
  std::string quoted = "'";
  for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

Result<std::string, std::string> KickCommand(const std::string& ctl, const std::string& db,
                                             const std::string& server_id) {
  using R = Result<std::string, std::string>;
  if (!IsServerId(server_id)) return R::Failure("the member ID is not hex digits or a UUID");
  if (!IsKnownDatabase(db)) return R::Failure("the database is not one of the OVN databases");
  if (ctl.empty() || ctl.front() != '/' || ctl.size() > 4096) {
    return R::Failure("the control socket path is not an absolute path");
  }
  const std::string word = ShellWord(ctl);
  if (word.empty()) {
    return R::Failure("the control socket path holds characters that cannot be shown safely");
  }
  return "ovs-appctl -t " + word + " cluster/kick " + db + " " + server_id;
}

}  // namespace ovn_raft
