#include "reader/database_reader.h"

#include <malloc.h>

#include <algorithm>

#include "base/utf8.h"
#include "parsers/cluster_status_parser.h"
#include "parsers/coverage_counter.h"
#include "parsers/memory_usage.h"
#include "parsers/ovs_version.h"
#include "parsers/storage_status.h"
#include "reader/model_reading.h"
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

// The session the server's answers belong to: ctl's, unless the server went away.
std::optional<std::uint64_t> SessionOf(const JsonRpcConnection& ctl) {
  if (ctl.session_ended()) return std::nullopt;
  return ctl.sessions();
}

// A call that ended without a reply (none in time, the connection lost, a reply refused or
// not JSON), as opposed to one answered, even with an error.
bool Unanswered(const JsonRpcCall& call) { return !call.reply.ok(); }

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

std::shared_ptr<const Snapshot> DatabaseReader::ReadAll(RoundProgress& progress) {
  const std::lock_guard<std::mutex> lock(mu_);
  const std::size_t reply_bytes = ReadRound(progress);
  auto snapshot = progress.End();
  // A large reply's memory is free again here; hand it back to the system rather than keep
  // the peak for good (a status of megabytes otherwise leaves many times its size resident).
  if (reply_bytes > (1u << 20)) malloc_trim(0);
  return snapshot;
}

std::size_t DatabaseReader::ReadRound(RoundProgress& progress) {
  const auto start = std::chrono::steady_clock::now();
  const auto taken_at = std::chrono::system_clock::now();
  std::vector<DatabaseTarget> targets;
  targets.reserve(slots_.size());
  for (const auto& slot : slots_) targets.push_back(slot->target);
  progress.Begin(taken_at, targets);

  std::vector<JsonRpcCall> calls;
  std::vector<Asked> asked;
  std::vector<std::size_t> owner;  // the slot of each call
  // Each database's share of the round's budget, drawn on by all its calls.
  std::vector<std::unique_ptr<ReplyBudget>> budgets;
  const std::size_t share = std::max(kRoundBudgetBytes, options_.max_reply_bytes) /
                            std::max<std::size_t>(slots_.size(), 1);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    // A server that restarted since the last round is known to before anything is asked.
    slots_[i]->ctl.DropIfClosedByServer();
    budgets.push_back(std::make_unique<ReplyBudget>(share));
    asked.push_back(AskCalls(*slots_[i], start, budgets.back().get(), calls));
    owner.resize(calls.size(), i);
  }
  std::size_t reply_bytes = 0;
  Exchange exchange(calls, options_);
  for (const auto* ended = &exchange.Next(); !ended->empty(); ended = &exchange.Next()) {
    for (const std::size_t call : *ended) {
      const std::size_t i = owner[call];
      if (--asked[i].pending != 0) continue;
      DatabaseReading r = Reading(*slots_[i], calls, asked[i], start, taken_at, &reply_bytes);
      r.budget_refusals = budgets[i]->refusals();
      progress.Finish(i, std::move(r));
    }
  }
  return reply_bytes;
}

DatabaseReader::Asked DatabaseReader::AskCalls(Slot& slot, SteadyTime start, ReplyBudget* budget,
                                               std::vector<JsonRpcCall>& calls) const {
  const std::size_t first = calls.size();
  Asked a;
  const auto session = SessionOf(slot.ctl);
  // memory/show first when asked: ovsdb-server answers it on the next turn of its main loop,
  // which then overlaps the requests that follow.
  if (slot.memory.Due(session, start, facts_interval_)) {
    a.memory = calls.size();
    calls.push_back(UnixctlRequest(slot.memory_ctl, "memory/show", {}));
  }
  if (slot.storage.Due(session, start, facts_interval_)) {
    a.storage = calls.size();
    calls.push_back(
        UnixctlRequest(slot.storage_ctl, "ovsdb-server/get-db-storage-status", {slot.target.name}));
  }
  // A release without the counter says so once per session.
  const auto& long_polls = slot.long_polls.Held(session);
  const bool no_counter = long_polls && !*long_polls;
  if (slot.long_polls.Due(session, start,
                          no_counter ? std::nullopt : std::optional(facts_interval_))) {
    a.long_polls = calls.size();
    calls.push_back(
        UnixctlRequest(slot.coverage_ctl, "coverage/read-counter", {kLongPollIntervalCounter}));
  }
  a.status = calls.size();
  calls.push_back(UnixctlRequest(slot.ctl, "cluster/status", {slot.target.name}));
  if (slot.sock) {
    a.select = calls.size();
    calls.push_back(ServerDatabasesRequest(*slot.sock, slot.target.name));
  }
  if (slot.version.Due(session, start, std::nullopt)) {
    a.version = calls.size();
    slot.version_ctl = std::make_unique<JsonRpcConnection>(slot.target.ctl_path);
    calls.push_back(UnixctlRequest(*slot.version_ctl, "version", {}));
  }
  for (std::size_t k = first; k < calls.size(); ++k) calls[k].budget = budget;
  a.pending = calls.size() - first;
  return a;
}

DatabaseReading DatabaseReader::Reading(Slot& slot, const std::vector<JsonRpcCall>& calls,
                                        const Asked& a, SteadyTime start, WallTime taken_at,
                                        std::size_t* reply_bytes) const {
  const JsonRpcCall& status = calls[a.status];
  const JsonRpcCall* select = a.select != kNone ? &calls[a.select] : nullptr;
  DatabaseReading r;
  r.target = slot.target;
  const auto done = select ? std::max(status.done_at, select->done_at) : status.done_at;
  r.duration_seconds = std::chrono::duration<double>(done - start).count();
  // The server answered this round: its cluster/status reply came, a status or an error.
  const bool answered = status.reply.ok();
  // Unanswered by the read's deadline: at least that late, a stall as much as a slow answer.
  if (answered || status.reply.error().code == ErrorCode::kTimeout) {
    r.response_seconds = std::chrono::duration<double>(status.done_at - start).count();
  }
  // What the server says of itself this round belongs to its current session (none when it
  // did not answer: nothing is lent, and what it said is not kept).
  const std::optional<std::uint64_t> session =
      answered ? std::optional<std::uint64_t>(slot.ctl.sessions()) : std::nullopt;
  ReadStatus(status, r, reply_bytes);
  TakeFacts(slot, calls, a, session, start, r);
  TakeLongPolls(slot, calls, a, session, start, r);
  if (select) ReadServerRow(*select, r);
  TakeVersion(slot, calls, a, session, start, r);
  ReadFile(slot, r);
  Observe(slot, answered, taken_at, r);
  MarkLeft(slot, select != nullptr, r);
  // Last: a member that left is still a clustered database.
  TakeModel(r);
  return r;
}

void DatabaseReader::ReadStatus(const JsonRpcCall& status, DatabaseReading& r,
                                std::size_t* reply_bytes) const {
  auto text = UnixctlResult(status);
  if (!text) {
    r.status_error = text.error();
    return;
  }
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
}

void DatabaseReader::TakeFacts(Slot& slot, const std::vector<JsonRpcCall>& calls, const Asked& a,
                               std::optional<std::uint64_t> session, SteadyTime start,
                               DatabaseReading& r) const {
  const auto retry_at =
      start + std::max<std::chrono::milliseconds>(kUnansweredRetry, facts_interval_);
  if (a.memory != kNone) {
    if (facts_interval_.count() > 0) slot.memory_ctl.Close();
    if (auto text = UnixctlResult(calls[a.memory])) {
      r.memory = ParseMemoryUsage(text.value());
      if (session) slot.memory.Answer(*session, start, r.memory);
    } else {
      r.memory_error = text.error();
      if (session && Unanswered(calls[a.memory])) {
        slot.memory.Unanswered(*session, retry_at);
      } else {
        slot.memory.Forget();
      }
    }
  } else {
    r.memory = slot.memory.Held(session);
  }
  if (a.storage != kNone) {
    if (facts_interval_.count() > 0) slot.storage_ctl.Close();
    auto text = UnixctlResult(calls[a.storage]);
    if (text && !(r.storage = ParseStorageStatus(text.value()))) {
      r.storage_error = Error{ErrorCode::kProtocolError,
                              "ovsdb-server/get-db-storage-status: not a \"status: \" reply"};
    } else if (!text) {
      r.storage_error = text.error();
    }
    if (r.storage && session) {
      slot.storage.Answer(*session, start, r.storage);
    } else if (!text && session && Unanswered(calls[a.storage])) {
      slot.storage.Unanswered(*session, retry_at);
    } else {
      slot.storage.Forget();
    }
  } else {
    r.storage = slot.storage.Held(session);
  }
}

void DatabaseReader::TakeLongPolls(Slot& slot, const std::vector<JsonRpcCall>& calls,
                                   const Asked& a, std::optional<std::uint64_t> session,
                                   SteadyTime start, DatabaseReading& r) const {
  if (a.long_polls != kNone) {
    if (facts_interval_.count() > 0) slot.coverage_ctl.Close();
    const JsonRpcCall& call = calls[a.long_polls];
    if (auto text = UnixctlResult(call)) {
      // A reply that is not a number is not understood, as a release without the counter.
      if (session) slot.long_polls.Answer(*session, start, ParseCoverageCounter(text.value()));
    } else if (!session) {
      slot.long_polls.Forget();
    } else if (Unanswered(call)) {
      slot.long_polls.Unanswered(
          *session, start + std::max<std::chrono::milliseconds>(kUnansweredRetry, facts_interval_));
    } else {  // "No such counter": a release before the counter
      slot.long_polls.Answer(*session, start, std::optional<std::uint64_t>());
    }
  }
  const auto& held = slot.long_polls.Held(session);
  if (held) r.long_poll_intervals = *held;
}

void DatabaseReader::ReadServerRow(const JsonRpcCall& select, DatabaseReading& r) {
  auto rows = ServerDatabasesResult(select);
  if (!rows) {
    r.server_error = rows.error();
    return;
  }
  for (auto& row : rows.value()) {
    if (row.name == r.target.name) r.server = std::move(row);
  }
  if (!r.server) {
    r.server_error =
        Error{ErrorCode::kProtocolError, "_Server has no database named " + r.target.name};
  }
}

void DatabaseReader::TakeVersion(Slot& slot, const std::vector<JsonRpcCall>& calls, const Asked& a,
                                 std::optional<std::uint64_t> session, SteadyTime start,
                                 DatabaseReading& r) {
  if (a.version != kNone) {
    const ReadResult<std::string> text = UnixctlResult(calls[a.version]);
    const bool unanswered = Unanswered(calls[a.version]);
    slot.version_ctl.reset();  // asked once per session: no connection waits for the next
    if (!session) {
      slot.version.Forget();
    } else if (text) {
      slot.version.Answer(*session, start, ParseOvsVersion(text.value()));
    } else if (unanswered) {
      slot.version.Unanswered(*session, start + kUnansweredRetry);
    } else {  // an error reply: not understood, not asked again in this session
      slot.version.Answer(*session, start, std::nullopt);
    }
  }
  // Only a server that answered this round is known to run that release, and only in the
  // session it said so (the round may have found it restarted).
  r.ovs_version = slot.version.Held(session);
}

void DatabaseReader::ReadFile(Slot& slot, DatabaseReading& r) {
  if (slot.target.file_path.empty()) {
    for (const auto& candidate : slot.target.file_candidates) {
      if (IsRegularFile(candidate)) {
        slot.target.file_path = r.target.file_path = candidate;
        slot.target.file_candidates.clear();
        break;
      }
    }
  }
  if (r.target.file_path.empty()) return;
  auto file = StatDatabaseFile(r.target.file_path);
  if (file) {
    r.file = file.value();
  } else {
    r.file_error = Error{ErrorCode::kFileUnreadable, file.error()};
  }
}

void DatabaseReader::MarkLeft(Slot& slot, bool read_server, DatabaseReading& r) {
  if (r.status && r.status->cluster_id_known) slot.was_member = true;
  if (!slot.was_member || !NoLongerServed(r, read_server)) return;
  r.status = ClusterStatus{};
  r.status->status = MemberStatus::kLeft;
  r.status->status_text = "left (the server no longer serves the database)";
  r.status_error.reset();
  r.server_error.reset();
}

void DatabaseReader::Observe(Slot& slot, bool answered, WallTime now, DatabaseReading& r) {
  if (!answered) return;  // the server did not answer: nothing is known
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

}  // namespace ovn_raft
