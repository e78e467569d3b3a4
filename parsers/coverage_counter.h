#pragma once

// The reply to the unixctl command `coverage/read-counter COUNTER`: the counter's total since
// the server started, as a decimal number and a newline ("3\n"). A server that has no such
// counter answers with an error ("No such counter"), which the caller receives as an RPC error.
//
// The counter read is `long_poll_interval` (OVS 3.3 and later): turns of the main loop that took
// one second or longer between two waits (lib/timeval.c), each also logged as "Unreasonably long
// NNNNms poll interval". ovsdb-server runs Raft, its clients and its storage on that one loop,
// so such a turn is time in which the member sent no heartbeat and answered no peer. It counts
// time spent working (a large transaction, a compaction, a blocking write, a preemption while
// working), not time the process could not run while waiting (stopped, or starved before it woke
// up): that shows only as a late answer. Pure.

#include <cstdint>
#include <optional>
#include <string_view>

namespace ovn_raft {

inline constexpr const char* kLongPollIntervalCounter = "long_poll_interval";

// Nothing when the reply is not a number alone.
std::optional<std::uint64_t> ParseCoverageCounter(std::string_view reply);

}  // namespace ovn_raft
