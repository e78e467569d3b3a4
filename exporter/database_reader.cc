#include "database_reader.h"

#include <chrono>
#include <thread>

#include "cluster_status_parser.h"

namespace ovn_raft {

DatabaseReading ReadDatabase(const DatabaseTarget& target, const CallOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  DatabaseReading r;
  r.target = target;

  auto text = UnixctlCall(target.ctl_path, "cluster/status", {target.name}, options);
  if (text) {
    r.status = ParseClusterStatus(text.value());
  } else {
    r.status_error = text.error();
  }

  if (!target.sock_path.empty()) {
    CallOptions rest = options;
    const auto used = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    rest.timeout = std::max(options.timeout - used, std::chrono::milliseconds(1));
    auto rows = SelectServerDatabases(target.sock_path, rest);
    if (!rows) {
      r.server_error = rows.error();
    } else {
      for (auto& row : rows.value()) {
        if (row.name == target.name) r.server = std::move(row);
      }
      if (!r.server) {
        r.server_error =
            Error{ErrorCode::kProtocolError, "_Server has no database named " + target.name};
      }
    }
  }
  // A standalone database has no Raft status: say so instead of the server's generic error.
  if (r.status_error && r.server && r.server->model != "clustered") {
    r.status_error = Error{ErrorCode::kNotClustered,
                           target.name + " is a " + r.server->model + " database, not clustered"};
  }
  r.duration_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

Snapshot ReadAll(const std::vector<DatabaseTarget>& targets, const CallOptions& options) {
  Snapshot s;
  s.taken_at = std::chrono::system_clock::now();
  s.databases.resize(targets.size());
  std::vector<std::thread> workers;
  // The first database is read on the calling thread; the others each get one.
  for (std::size_t i = 1; i < targets.size(); ++i) {
    workers.emplace_back([&, i] { s.databases[i] = ReadDatabase(targets[i], options); });
  }
  if (!targets.empty()) s.databases[0] = ReadDatabase(targets[0], options);
  for (auto& w : workers) w.join();
  return s;
}

}  // namespace ovn_raft
