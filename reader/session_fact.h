#pragma once

// One thing a server says of itself (its release, its counts, its storage status), kept for the
// session it was read in (JsonRpcConnection::sessions of the exporter's cluster/status
// connection: a restarted server is a new session) and asked again when older than an
// interval. A server that answered cluster/status but left the call unanswered is not asked
// again in that session for a while, or every round would wait for it until the deadline.
// Pure: the reader does the I/O.

#include <chrono>
#include <cstdint>
#include <optional>

namespace ovn_raft {

template <typename T>
class SessionFact {
 public:
  using Time = std::chrono::steady_clock::time_point;

  // Whether to ask it this round, in `session` (none: the server went away, its next session
  // is not known yet). `interval`: how long an answer holds (none: the whole session; 0: one
  // round).
  bool Due(std::optional<std::uint64_t> session, Time now,
           std::optional<std::chrono::milliseconds> interval) const {
    if (!session || session_ != session) return true;
    if (!answered_) return now >= retry_at_;
    return interval && now - at_ >= *interval;
  }
  // What to report in `session`: the answer read in it, if any.
  const std::optional<T>& Held(std::optional<std::uint64_t> session) const {
    static const std::optional<T> kNothing;
    return session && session_ == session && answered_ ? value_ : kNothing;
  }

  // The server answered in `session` at `now`: `value`, or nothing it could be understood as.
  void Answer(std::uint64_t session, Time now, std::optional<T> value) {
    value_ = std::move(value);
    session_ = session;
    answered_ = true;
    at_ = now;
  }
  // The server answered cluster/status in `session` but not this: asked again from `retry_at`.
  void Unanswered(std::uint64_t session, Time retry_at) {
    value_.reset();
    session_ = session;
    answered_ = false;
    retry_at_ = retry_at;
  }
  // Nothing known: asked again next round.
  void Forget() {
    value_.reset();
    session_.reset();
  }

 private:
  std::optional<T> value_;
  std::optional<std::uint64_t> session_;
  bool answered_ = false;
  Time at_{};
  Time retry_at_{};
};

}  // namespace ovn_raft
