#include "reader/model_reading.h"

namespace ovn_raft {

void TakeModel(DatabaseReading& r) {
  if (r.server) {
    r.model = ParseDatabaseModel(r.server->model);
  } else if (r.status) {
    r.model = DatabaseModel::kClustered;  // only a Raft member answers cluster/status
  }
  if (!r.status_error || !r.server) return;
  // Only an error the server replied with is explained by the model: a timeout or a lost
  // connection is a failure whatever the database is.
  if (r.status_error->code != ErrorCode::kRpcError) return;
  if (!r.model) {
    // The model is not repeated: it is the server's text, of any length.
    r.status_error = Error{ErrorCode::kNotClustered,
                           r.target.name +
                               " has no Raft status, and its _Server row names a database "
                               "model this exporter does not know (see /status)"};
  } else if (*r.model != DatabaseModel::kClustered) {
    // A server with no clustered database has not even registered the command.
    r.status_error.reset();
  }
}

std::string ModelFinding(const std::string& db, DatabaseModel model) {
  switch (model) {
    case DatabaseModel::kClustered:
      return db + " is a clustered database: serving its Raft status and its server's facts";
    case DatabaseModel::kStandalone:
      return db + " is a standalone database: serving its server's facts, no Raft status";
    case DatabaseModel::kRelay:
      return db +
             " is a relay database: serving its server's facts and whether it is connected to "
             "its relay source, no Raft status";
  }
  return db + " is a database of an unknown model";
}

}  // namespace ovn_raft
