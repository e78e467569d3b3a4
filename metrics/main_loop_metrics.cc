#include "metrics/main_loop_metrics.h"

namespace ovn_raft {

void AddMainLoopMetrics(const DatabaseReading& r, FamilyBuilder& b) {
  const Labels db{{"db", r.target.name}};
  if (r.response_seconds) {
    b.Gauge("ovn_raft_ovsdb_server_response_seconds",
            "How long the ovsdb-server took to answer the exporter's cluster/status this read, or "
            "had not answered when the scraper's deadline came: it answers on its one main loop, "
            "so a stalled, stopped or CPU-starved loop answers late.",
            db, *r.response_seconds);
  }
  if (r.long_poll_intervals) {
    b.Counter("ovn_raft_ovsdb_server_long_poll_intervals_total",
              "Turns of the ovsdb-server's main loop that took a second or longer since it started "
              "(coverage counter long_poll_interval, \"Unreasonably long poll interval\" in its "
              "log; Open vSwitch 3.3 and later).",
              db, static_cast<double>(*r.long_poll_intervals));
  }
}

}  // namespace ovn_raft
