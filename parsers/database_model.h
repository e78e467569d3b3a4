#pragma once

// What kind of database ovsdb-server serves, as the `model` column of its _Server.Database row
// names it. Only a clustered database has a Raft status; a standalone one (`ovsdb-tool
// create`) and a relay (`relay:DB:REMOTE`, which follows another server's database) have none,
// and ovsdb-server answers their cluster/status with an error. Pure.

#include <optional>
#include <string_view>

namespace ovn_raft {

enum class DatabaseModel { kClustered, kStandalone, kRelay };

// Every model, in order: the values of ovn_raft_database_model_info's `model` label.
inline constexpr DatabaseModel kAllDatabaseModels[] = {
    DatabaseModel::kClustered, DatabaseModel::kStandalone, DatabaseModel::kRelay};

// The model a _Server row names, or nothing for one this exporter does not know.
std::optional<DatabaseModel> ParseDatabaseModel(std::string_view model);

// "clustered", "standalone", "relay": as _Server spells it.
const char* DatabaseModelName(DatabaseModel model);

}  // namespace ovn_raft
