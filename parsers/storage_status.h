#pragma once

// The reply to `ovsdb-server/get-db-storage-status DB` (OVS 2.15 and later): "status: ok", or
// "status: " and the error the database's storage holds, such as "inconsistent data" when a
// Raft entry could not be applied. It does not report the I/O errors of a full disk: those
// put the member in failure mode, which cluster/status shows as "Status: failed". Pure.

#include <optional>
#include <string>
#include <string_view>

namespace ovn_raft {

struct StorageStatus {
  bool ok = false;
  std::string error;  // as printed (bounded), empty when ok
};

// Nothing when the reply is not of that form.
std::optional<StorageStatus> ParseStorageStatus(std::string_view reply);

}  // namespace ovn_raft
