#include "reader/database_reader.h"

#include <malloc.h>

#include <algorithm>

#include "base/utf8.h"
#include "parsers/cluster_status_parser.h"
#include "parsers/memory_usage.h"
#include "parsers/ovs_version.h"
#include "parsers/storage_status.h"
#include "reader/socket_discovery.h"

namespace ovn_raft {
namespace {

// ovsdb-server answered, and does not serve the database: its _Server has no row for it (when
// the database socket is read), and cluster/status answers "unknown cluster".
bool NoLongerServed(const DatabaseReading& r, bool read_server) {
  const bool unknown = r.status_error && r.status_error->code == ErrorCode::kRpcError &&
                       r.status_error->message.find("unknown cluster") != std::string::npos;
  return unknown && (!read_server || (!r.server && r.server_error &&
                                      r.server_error->code == ErrorCode::kProtocolError));
}

// What the server says of itself: its counts (memory/show) and its storage's error, if any.
void ReadServerFacts(const JsonRpcCall& memory, const JsonRpcCall& storage, DatabaseReading& r) {
  if (auto text = UnixctlResult(memory)) {
    r.memory = ParseMemoryUsage(text.value());
  } else {
    r.memory_error = text.error();
  }
  auto text = UnixctlResult(storage);
  if (!text) {
    r.storage_error = text.error();
  } else if (!(r.storage = ParseStorageStatus(text.value()))) {
    r.storage_error = Error{ErrorCode::kProtocolError,
                            "ovsdb-server/get-db-storage-status: not a \"status: \" reply"};
  }
}

}  // namespace

DatabaseReader::DatabaseReader(const std::vector<DatabaseTarget>& targets,
                               const CallOptions& options, std::size_t max_members,
                               std::chrono::milliseconds facts_interval)
    : options_(options), max_members_(max_members), facts_interval_(facts_interval) {
  for (const auto& t : targets) {
    auto slot = std::make_unique<Slot>(t);
    if (!t.sock_path.empty()) slot->sock = std::make_unique<JsonRpcConnection>(t.sock_path);
    slots_.push_back(std::move(slot));
  }
}

Snapshot DatabaseReader::ReadAll() {
  const std::lock_guard<std::mutex> lock(mu_);
  std::size_t reply_bytes = 0;
  Snapshot s = ReadRound(&reply_bytes);
  // A large reply's memory is free again here; hand it back to the system rather than keep
  // the peak for good (a status of megabytes otherwise leaves many times its size resident).
  if (reply_bytes > (1u << 20)) malloc_trim(0);
  return s;
}

Snapshot DatabaseReader::ReadRound(std::size_t* reply_bytes) {
  using Clock = std::chrono::steady_clock;
  Snapshot s;
  s.taken_at = std::chrono::system_clock::now();

  // Where each database's calls stand in `calls`; kNone for a call not sent this round.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  struct Asked {
    std::size_t status, select = kNone, memory = kNone, storage = kNone;
  };
  std::vector<JsonRpcCall> calls;
  std::vector<Asked> asked;
  const auto start = Clock::now();
  // Each database's share of the round's budget, drawn on by all its calls.
  std::vector<std::unique_ptr<ReplyBudget>> budgets;
  const std::size_t share = std::max(kRoundBudgetBytes, options_.max_reply_bytes) /
                            std::max<std::size_t>(slots_.size(), 1);
  for (const auto& slot : slots_) {
    const std::size_t first = calls.size();
    budgets.push_back(std::make_unique<ReplyBudget>(share));
    Asked a;
    // memory/show first when asked: ovsdb-server answers it on the next turn of its main loop,
    // which then overlaps the requests that follow.
    if (FactsDue(*slot, start)) {
      a.memory = calls.size();
      calls.push_back(UnixctlRequest(slot->memory_ctl, "memory/show", {}));
      a.storage = calls.size();
      calls.push_back(UnixctlRequest(slot->storage_ctl, "ovsdb-server/get-db-storage-status",
                                     {slot->target.name}));
    }
    a.status = calls.size();
    calls.push_back(UnixctlRequest(slot->ctl, "cluster/status", {slot->target.name}));
    if (slot->sock) {
      a.select = calls.size();
      calls.push_back(ServerDatabasesRequest(*slot->sock, slot->target.name));
    }
    for (std::size_t k = first; k < calls.size(); ++k) calls[k].budget = budgets.back().get();
    asked.push_back(a);
  }
  ExchangeAll(calls, options_);
  ReadVersions(start + options_.timeout, budgets);

  for (std::size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = *slots_[i];
    const Asked& a = asked[i];
    const JsonRpcCall& status = calls[a.status];
    const JsonRpcCall* select = a.select != kNone ? &calls[a.select] : nullptr;
    DatabaseReading r;
    r.target = slot.target;
    r.budget_refusals = budgets[i]->refusals();
    const auto done = select ? std::max(status.done_at, select->done_at) : status.done_at;
    r.duration_seconds = std::chrono::duration<double>(done - start).count();
    auto text = UnixctlResult(status);
    if (text) {
      *reply_bytes += text.value().size();
      r.status = ParseClusterStatus(ValidUtf8(text.value()));
      // Members being added count too: each would be a series of its own.
      const std::uint64_t listed = (r.status->servers ? r.status->servers->size() : 0) +
                                   r.status->servers_dropped + r.status->adding_servers.size();
      if (listed > max_members_) {
        r.status_error =
            Error{ErrorCode::kViewTooLarge, r.target.name + " lists " + std::to_string(listed) +
                                                " members (and members being added), more than "
                                                "--ovsdb.max-members=" +
                                                std::to_string(max_members_)};
        r.status.reset();
      }
    } else {
      r.status_error = text.error();
    }
    if (a.memory != kNone) {
      ReadServerFacts(calls[a.memory], calls[a.storage], r);
      if (facts_interval_.count() > 0) {
        slot.memory_ctl.Close();
        slot.storage_ctl.Close();
      }
      slot.memory.reset();
      slot.storage.reset();
      if (r.memory && r.storage) {  // kept only when whole: a failure is asked again next round
        slot.memory = r.memory;
        slot.storage = r.storage;
        slot.facts_at = start;
        slot.facts_connects = slot.ctl.connects();
      }
    } else if (FactsHeld(slot)) {  // checked again: the round may have lost or remade ctl
      r.memory = slot.memory;
      r.storage = slot.storage;
    }
    if (select) {
      auto rows = ServerDatabasesResult(*select);
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
    // Only a server that answered this round is known to run that release.
    if (slot.ctl.fd() >= 0) r.ovs_version = slot.ovs_version;
    if (slot.target.file_path.empty()) {
      for (const auto& candidate : slot.target.file_candidates) {
        if (IsRegularFile(candidate)) {
          slot.target.file_path = r.target.file_path = candidate;
          slot.target.file_candidates.clear();
          break;
        }
      }
    }
    if (!r.target.file_path.empty()) {
      auto file = StatDatabaseFile(r.target.file_path);
      if (file) {
        r.file = file.value();
      } else {
        r.file_error = Error{ErrorCode::kFileUnreadable, file.error()};
      }
    }
    Observe(slot, s.taken_at, r);
    if (r.status && r.status->cluster_id_known) slot.was_member = true;
    if (slot.was_member && NoLongerServed(r, select != nullptr)) {
      r.status = ClusterStatus{};
      r.status->status = MemberStatus::kLeft;
      r.status->status_text = "left (the server no longer serves the database)";
      r.status_error.reset();
      r.server_error.reset();
    }
    s.databases.push_back(std::move(r));
  }
  return s;
}

// Facts are lent only by the server that answers on the connection they were read on: not by
// one that has since restarted or stopped answering.
bool DatabaseReader::FactsHeld(const Slot& slot) {
  return slot.memory && slot.ctl.fd() >= 0 && slot.facts_connects == slot.ctl.connects();
}

bool DatabaseReader::FactsDue(const Slot& slot, std::chrono::steady_clock::time_point now) const {
  return facts_interval_.count() == 0 || !FactsHeld(slot) || now - slot.facts_at >= facts_interval_;
}

void DatabaseReader::Observe(Slot& slot, std::chrono::system_clock::time_point now,
                             DatabaseReading& r) {
  if (slot.ctl.fd() < 0) return;  // the server did not answer: nothing is known
  // A new session, not any reconnect: the exporter's own deadline closing a connection to a slow
  // server must not make a long-running server look freshly started.
  if (slot.seen_since_sessions != slot.ctl.sessions()) {
    slot.seen_since_sessions = slot.ctl.sessions();
    slot.seen_since = now;
    slot.log_clock.Reset();
  }
  r.server_seen_since = slot.seen_since;
  if (r.status && r.status->log_first_index) {
    r.log_uncompacted_since =
        slot.log_clock.Observe(now, *r.status->log_first_index, r.status->log_next_index);
  }
}

void DatabaseReader::ReadVersions(std::chrono::steady_clock::time_point deadline,
                                  const std::vector<std::unique_ptr<ReplyBudget>>& budgets) {
  std::vector<JsonRpcCall> calls;
  std::vector<Slot*> asked;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const auto& slot = slots_[i];
    const bool answered = slot->ctl.fd() >= 0;  // failed calls drop the connection
    if (!answered || slot->version_connects == slot->ctl.connects()) continue;
    slot->ovs_version.reset();
    calls.push_back(UnixctlRequest(slot->ctl, "version", {}));
    calls.back().budget = budgets[i].get();
    asked.push_back(slot.get());
  }
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  if (calls.empty() || left.count() <= 0) return;
  CallOptions options = options_;
  options.timeout = left;
  ExchangeAll(calls, options);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    auto text = UnixctlResult(calls[i]);
    // No answer: asked again next round. An answer not understood: not again on this connection.
    if (!text && text.error().code != ErrorCode::kRpcError) continue;
    if (text) asked[i]->ovs_version = ParseOvsVersion(text.value());
    asked[i]->version_connects = asked[i]->ctl.connects();
  }
}

}  // namespace ovn_raft
