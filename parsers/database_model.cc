#include "parsers/database_model.h"

namespace ovn_raft {

std::optional<DatabaseModel> ParseDatabaseModel(std::string_view model) {
  for (const DatabaseModel m : kAllDatabaseModels) {
    if (model == DatabaseModelName(m)) return m;
  }
  return std::nullopt;
}

const char* DatabaseModelName(DatabaseModel model) {
  switch (model) {
    case DatabaseModel::kClustered:
      return "clustered";
    case DatabaseModel::kStandalone:
      return "standalone";
    case DatabaseModel::kRelay:
      return "relay";
  }
  return "unknown";
}

}  // namespace ovn_raft
