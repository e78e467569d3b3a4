#pragma once

// The reply to the unixctl command `memory/show`, which ovsdb-server answers itself with its
// current counts, "key:value" pairs separated by spaces, sorted by key:
//   "atoms:867 cells:3674 monitors:0 n-weak-refs:0 raft-connections:4 raft-log:284 ..."
// The counts are the whole process's (summed over the databases it serves). ovsdb-server
// omits most counts that are zero (simap_increase adds no key for 0). Pure.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ovn_raft {

// The keys OVS 2.10 to 4.0 print (ovsdb/ovsdb.c, monitor.c, jsonrpc-server.c, raft.c).
enum class MemoryKey {
  kAtoms,            // "atoms": values in all rows of all databases
  kCells,            // "cells": rows times columns
  kMonitors,         // "monitors": distinct monitors clients hold
  kJsonCaches,       // "json-caches": cached monitor updates
  kSessions,         // "sessions": client JSON-RPC sessions
  kTriggers,         // "triggers": transactions waiting (e.g. on a "wait" operation)
  kBacklog,          // "backlog": bytes queued to clients
  kRaftBacklogKb,    // "raft-backlog-kB": kB (1000 bytes) queued to Raft peers
  kRaftConnections,  // "raft-connections"
  kRaftLog,          // "raft-log": Raft log entries not yet compacted into a snapshot
  kTxnHistory,       // "txn-history": transactions kept for monitor_cond_since
  kTxnHistoryAtoms,  // "txn-history-atoms"
  kWeakRefs,         // "n-weak-refs"
};
constexpr std::size_t kMemoryKeyCount = 13;

const char* MemoryKeyName(MemoryKey key);  // as ovsdb-server prints it

struct MemoryUsage {
  // By MemoryKey; absent when the reply does not print the key.
  std::array<std::optional<std::uint64_t>, kMemoryKeyCount> values;
  // Keys this parser does not know (a newer OVS), at most kMaxUnknownMemoryKeys kept.
  std::vector<std::string> unknown_keys;
  std::uint64_t unknown_dropped = 0;  // unknown keys beyond that bound
  std::uint64_t malformed = 0;        // tokens that are not "key:number"

  const std::optional<std::uint64_t>& operator[](MemoryKey key) const {
    return values[static_cast<std::size_t>(key)];
  }
};

constexpr std::size_t kMaxUnknownMemoryKeys = 32;

// Never fails: what is not understood is counted, and the rest is kept.
MemoryUsage ParseMemoryUsage(std::string_view reply);

}  // namespace ovn_raft
