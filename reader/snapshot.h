#pragma once

// One round of reads of every watched database: what the metrics, /status and /readyz show.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "ovsdb/result.h"
#include "parsers/cluster_status.h"
#include "parsers/server_database.h"
#include "reader/database_target.h"

namespace ovn_raft {

struct DatabaseReading {
  DatabaseTarget target;
  std::optional<ClusterStatus> status;  // parsed cluster/status, when it could be read
  std::optional<Error> status_error;
  std::optional<ServerDatabase> server;  // this database's _Server row, when read
  std::optional<Error> server_error;
  std::optional<std::string> ovs_version;  // the server's Open vSwitch release (`version`)
  double duration_seconds = 0;

  // The `up` of this database: its Raft status was read and parsed.
  bool up() const { return status.has_value(); }
  // The reason of the failure that matters most, for the errors counter and logs.
  std::optional<Error> primary_error() const { return status_error ? status_error : server_error; }
};

struct Snapshot {
  std::vector<DatabaseReading> databases;
  std::chrono::system_clock::time_point taken_at;  // wall clock, for "ms ago" -> timestamps
};

}  // namespace ovn_raft
