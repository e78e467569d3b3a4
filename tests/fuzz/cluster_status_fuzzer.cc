// libFuzzer target: the parsers of what ovsdb-server prints (cluster/status and its JSON
// rendering, memory/show, the storage status) must accept any bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parsers/cluster_status_parser.h"
#include "parsers/memory_usage.h"
#include "parsers/status_json.h"
#include "parsers/storage_status.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ovn_raft::ClusterStatus status = ovn_raft::ParseClusterStatus(text);
  const std::string json = ovn_raft::ClusterStatusToJson(status, false);
  if (json.empty() || json.front() != '{') __builtin_trap();
  const ovn_raft::MemoryUsage memory = ovn_raft::ParseMemoryUsage(text);
  if (memory.unknown_keys.size() > ovn_raft::kMaxUnknownMemoryKeys) __builtin_trap();
  const auto storage = ovn_raft::ParseStorageStatus(text);
  if (storage && storage->error.size() > 512) __builtin_trap();
  return 0;
}
