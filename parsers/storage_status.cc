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
  // Made valid, then cut between characters: it is shown on /status as a JSON string, and an
  // invalid byte becomes a replacement character of three, so the cut comes last.
  if (!s.ok) {
    s.error = std::string(Utf8Prefix(ValidUtf8(line.substr(0, kMaxErrorLength)), kMaxErrorLength));
  }
  return s;
}

}  // namespace ovn_raft
