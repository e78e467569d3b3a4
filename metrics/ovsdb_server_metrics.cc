#include "metrics/ovsdb_server_metrics.h"

namespace ovn_raft {
namespace {

// One gauge per memory/show key; `scale` converts to base units. raft-connections and
// raft-log are left out: ovn_raft_connections and the log indices of cluster/status say the
// same, on every release.
struct MemoryMetric {
  MemoryKey key;
  const char* name;
  const char* help;
  double scale;
};

constexpr MemoryMetric kMemoryMetrics[] = {
    {MemoryKey::kAtoms, "ovn_raft_ovsdb_atoms",
     "Values (atoms) in the rows of the databases this ovsdb-server serves (memory/show).", 1},
    {MemoryKey::kCells, "ovn_raft_ovsdb_cells",
     "Rows times columns of the databases this ovsdb-server serves (memory/show).", 1},
    {MemoryKey::kMonitors, "ovn_raft_ovsdb_monitors",
     "Distinct monitors this ovsdb-server keeps for its clients (memory/show).", 1},
    {MemoryKey::kJsonCaches, "ovn_raft_ovsdb_monitor_json_caches",
     "Cached monitor updates this ovsdb-server keeps (memory/show json-caches).", 1},
    {MemoryKey::kSessions, "ovn_raft_ovsdb_sessions",
     "Client sessions of this ovsdb-server: ovn-controllers, northd, CMS (memory/show).", 1},
    {MemoryKey::kTriggers, "ovn_raft_ovsdb_triggers",
     "Client transactions waiting in this ovsdb-server (memory/show triggers).", 1},
    {MemoryKey::kBacklog, "ovn_raft_ovsdb_sessions_backlog_bytes",
     "Bytes this ovsdb-server has queued for its clients and not sent yet (memory/show backlog).",
     1},
    {MemoryKey::kRaftBacklogKb, "ovn_raft_backlog_bytes",
     "Bytes this ovsdb-server has queued for its Raft peers and not sent yet (memory/show "
     "raft-backlog-kB).",
     1000},
    {MemoryKey::kTxnHistory, "ovn_raft_ovsdb_transaction_history",
     "Transactions kept for clients that reconnect (monitor_cond_since; memory/show "
     "txn-history).",
     1},
    {MemoryKey::kTxnHistoryAtoms, "ovn_raft_ovsdb_transaction_history_atoms",
     "Values in the transactions kept for clients that reconnect (memory/show "
     "txn-history-atoms).",
     1},
    {MemoryKey::kWeakRefs, "ovn_raft_ovsdb_weak_references",
     "Weak references between rows (memory/show n-weak-refs).", 1},
};

double Seconds(std::chrono::system_clock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

}  // namespace

void AddOvsdbServerMetrics(const DatabaseReading& r, FamilyBuilder& b) {
  const Labels db{{"db", r.target.name}};
  if (r.ovs_version) {
    b.Gauge("ovn_raft_ovsdb_server_build_info",
            "The Open vSwitch release of the ovsdb-server serving this database (its unixctl "
            "`version`); always 1.",
            {{"db", r.target.name}, {"version", *r.ovs_version}}, 1);
  }
  if (r.server_seen_since) {
    b.Gauge("ovn_raft_ovsdb_server_seen_since_timestamp_seconds",
            "Since when this ovsdb-server has run without a restart, as far as the exporter saw: "
            "when its current connection to the server opened (a restart of either, or a failed "
            "read, starts it anew).",
            db, Seconds(*r.server_seen_since));
  }
  if (r.log_uncompacted_since) {
    b.Gauge("ovn_raft_log_uncompacted_since_timestamp_seconds",
            "The Raft log has held entries not compacted into a snapshot since at least this "
            "time: when the exporter last saw the log empty or its first index move, or its "
            "connection to the server opened.",
            db, Seconds(*r.log_uncompacted_since));
  }
  if (r.memory) {
    const MemoryUsage& m = *r.memory;
    // A database without Raft has no Raft peers: the process's Raft backlog, if it serves a
    // clustered database too, is that database's series.
    const bool raft = !r.model || *r.model == DatabaseModel::kClustered;
    for (const auto& metric : kMemoryMetrics) {
      if (metric.key == MemoryKey::kRaftBacklogKb && !raft) continue;
      // ovsdb-server leaves out the counts that are zero.
      b.Gauge(metric.name, metric.help, db,
              static_cast<double>(m[metric.key].value_or(0)) * metric.scale);
    }
    b.Gauge("ovn_raft_ovsdb_memory_show_unknown_keys",
            "Entries of memory/show the exporter does not know (a newer OVS) or cannot read "
            "(see /status).",
            db, static_cast<double>(m.unknown_keys.size() + m.unknown_dropped + m.malformed));
  }
  if (r.file) {
    b.Gauge("ovn_raft_database_file_size_bytes",
            "Size of the database file (the third path of --ovsdb.database, or found at start).",
            db, static_cast<double>(r.file->file_bytes));
    b.Gauge("ovn_raft_database_filesystem_avail_bytes",
            "Space free to unprivileged writers on the filesystem holding the database file.", db,
            static_cast<double>(r.file->avail_bytes));
    b.Gauge("ovn_raft_database_filesystem_size_bytes",
            "Size of the filesystem holding the database file.", db,
            static_cast<double>(r.file->filesystem_bytes));
  }
  if (r.storage) {
    b.Gauge("ovn_raft_storage_ok",
            "1 when ovsdb-server reports no error in this database's storage "
            "(ovsdb-server/get-db-storage-status; 0: see /status). A full disk shows as "
            "ovn_raft_status{status=\"failed\"} instead.",
            db, r.storage->ok ? 1 : 0);
  }
}

}  // namespace ovn_raft
