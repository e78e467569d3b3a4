// libFuzzer target: the cluster/status parser and its JSON rendering must accept any bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parsers/cluster_status_parser.h"
#include "parsers/status_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ovn_raft::ClusterStatus status = ovn_raft::ParseClusterStatus(text);
  const std::string json = ovn_raft::ClusterStatusToJson(status, false);
  if (json.empty() || json.front() != '{') __builtin_trap();
  return 0;
}
