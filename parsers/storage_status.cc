#include "parsers/storage_status.h"

#include "base/strings.h"
#include "base/utf8.h"

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
  // Cut between characters and made valid: it is shown on /status as a JSON string.
  if (!s.ok) s.error = ValidUtf8(Utf8Prefix(line, kMaxErrorLength));
  return s;
}

}  // namespace ovn_raft
