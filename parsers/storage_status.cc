#include "parsers/storage_status.h"

#include "base/strings.h"

namespace ovn_raft {
namespace {

constexpr std::size_t kMaxErrorLength = 512;

}  // namespace

std::optional<StorageStatus> ParseStorageStatus(std::string_view reply) {
  std::string_view line = Trim(reply.substr(0, reply.find('\n')));
  if (!ConsumePrefix(line, "status:")) return std::nullopt;
  line = Trim(line);
  if (line.empty()) return std::nullopt;
  StorageStatus s;
  s.ok = line == "ok";
  if (!s.ok) s.error = std::string(line.substr(0, kMaxErrorLength));
  return s;
}

}  // namespace ovn_raft
