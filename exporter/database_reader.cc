#include "database_reader.h"

#include "cluster_status_parser.h"

namespace ovn_raft {

DatabaseReader::DatabaseReader(const std::vector<DatabaseTarget>& targets,
                               const CallOptions& options)
    : options_(options) {
  for (const auto& t : targets) {
    auto slot = std::unique_ptr<Slot>(new Slot{t, JsonRpcConnection(t.ctl_path), nullptr});
    if (!t.sock_path.empty()) slot->sock = std::make_unique<JsonRpcConnection>(t.sock_path);
    slots_.push_back(std::move(slot));
  }
}

Snapshot DatabaseReader::ReadAll(std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  const std::lock_guard<std::mutex> lock(mu_);
  CallOptions options = options_;
  options.timeout = timeout;
  Snapshot s;
  s.taken_at = std::chrono::system_clock::now();

  // calls[2i] is database i's cluster/status; calls[2i+1] its _Server select, when it has one.
  std::vector<JsonRpcCall> calls;
  std::vector<int> select_index(slots_.size(), -1);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    calls.push_back(UnixctlRequest(slots_[i]->ctl, "cluster/status", {slots_[i]->target.name}));
    if (slots_[i]->sock) {
      select_index[i] = static_cast<int>(calls.size());
      calls.push_back(ServerDatabasesRequest(*slots_[i]->sock));
    }
  }
  const auto start = Clock::now();
  ExchangeAll(calls, options);

  std::size_t next = 0;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    DatabaseReading r;
    r.target = slots_[i]->target;
    auto done = calls[next].done_at;
    if (select_index[i] >= 0) done = std::max(done, calls[next + 1].done_at);
    r.duration_seconds = std::chrono::duration<double>(done - start).count();
    auto text = UnixctlResult(calls[next]);
    next += select_index[i] >= 0 ? 2 : 1;
    if (text) {
      r.status = ParseClusterStatus(text.value());
    } else {
      r.status_error = text.error();
    }
    if (select_index[i] >= 0) {
      auto rows = ServerDatabasesResult(calls[static_cast<std::size_t>(select_index[i])]);
      if (!rows) {
        r.server_error = rows.error();
      } else {
        for (auto& row : rows.value()) {
          if (row.name == r.target.name) r.server = std::move(row);
        }
        if (!r.server) {
          r.server_error =
              Error{ErrorCode::kProtocolError, "_Server has no database named " + r.target.name};
        }
      }
    }
    // A standalone database has no Raft status: say so instead of the server's generic error.
    if (r.status_error && r.server && r.server->model != "clustered") {
      r.status_error = Error{ErrorCode::kNotClustered, r.target.name + " is a " + r.server->model +
                                                           " database, not clustered"};
    }
    s.databases.push_back(std::move(r));
  }
  return s;
}

}  // namespace ovn_raft
