#include "parsers/coverage_counter.h"

#include "base/strings.h"

namespace ovn_raft {

std::optional<std::uint64_t> ParseCoverageCounter(std::string_view reply) {
  ConsumeSuffix(reply, "\n");
  return ParseUint(Trim(reply));
}

}  // namespace ovn_raft
