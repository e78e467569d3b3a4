#pragma once

// One round of reads of every watched database: what the metrics, /status and /readyz show.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ovsdb/read_error.h"
#include "parsers/cluster_status.h"
#include "parsers/database_model.h"
#include "parsers/memory_usage.h"
#include "parsers/server_database.h"
#include "parsers/storage_status.h"
#include "reader/database_file.h"
#include "reader/database_target.h"

namespace ovn_raft {

struct DatabaseReading {
  DatabaseTarget target;
  std::optional<ClusterStatus> status;  // parsed cluster/status, when it could be read
  std::optional<Error> status_error;
  std::optional<ServerDatabase> server;  // this database's _Server row, when read
  std::optional<Error> server_error;
  // What kind of database it is (model_reading.h): its _Server row's model, or clustered when
  // its Raft status was read without one; absent when neither says.
  std::optional<DatabaseModel> model;
  std::optional<std::string> ovs_version;  // the server's Open vSwitch release (`version`)
  std::optional<MemoryUsage> memory;       // the server's counts (`memory/show`)
  std::optional<Error> memory_error;
  std::optional<StorageStatus> storage;  // `ovsdb-server/get-db-storage-status`
  std::optional<Error> storage_error;
  // Turns of the server's main loop that took a second or longer, since it started (coverage
  // counter long_poll_interval, parsers/coverage_counter.h); absent before OVS 3.3.
  std::optional<std::uint64_t> long_poll_intervals;
  // How long the server took to answer this round's cluster/status, when it did, or how long
  // it had not answered when the scraper's deadline came (a lower bound): ovsdb-server answers
  // on its one main loop, so a stalled or starved loop answers late.
  std::optional<double> response_seconds;
  // When the exporter's connection to the server's unixctl socket opened: the server has run
  // without a restart at least since then. Absent when the server did not answer.
  std::optional<std::chrono::system_clock::time_point> server_seen_since;
  // Since when the log's first index has not moved, as far as the exporter saw (it moves when
  // the server compacts its log into a snapshot; a restart of either starts it anew): the log
  // has not been compacted since at least then.
  std::optional<std::chrono::system_clock::time_point> log_uncompacted_since;
  // The database file's size and its filesystem's, when the exporter is given its path.
  std::optional<DatabaseFileFacts> file;
  std::optional<Error> file_error;  // kFileUnreadable; the database itself may be up
  double duration_seconds = 0;
  // Replies of this round refused because the database's share of the round's memory budget
  // was spent (each also counted in ovn_raft_exporter_errors_total, round_budget_exceeded).
  std::uint64_t budget_refusals = 0;

  // The `up` of this database: it was read as what it is: its Raft status was read and parsed,
  // or, for a database without Raft (standalone, relay), its _Server row was, its server
  // answering.
  bool up() const {
    return status.has_value() ||
           (model && *model != DatabaseModel::kClustered && server && !status_error);
  }
  // The reason of the failure that matters most, for the errors counter and logs.
  std::optional<Error> primary_error() const { return status_error ? status_error : server_error; }
};

struct Snapshot {
  std::vector<DatabaseReading> databases;
  std::chrono::system_clock::time_point taken_at;  // wall clock, for "ms ago" -> timestamps
};

}  // namespace ovn_raft
