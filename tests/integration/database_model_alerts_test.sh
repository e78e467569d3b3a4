#!/usr/bin/env bash
# Databases that are not Raft members, under a real Prometheus with the shipped rules and alerts
# (for: divided by 30, scripts/prometheus-demo.sh):
#   1. a standalone NB and SB (Kube-OVN's single-replica mode), their exporter told to expect
#      one member: no alert at all, not even pending, over a window longer than the for: of
#      every alert that could name them;
#   2. a relay of a real 3-member SB cluster: no relay alert while it follows its source;
#      OVNRaftRelayDisconnected and OVNRaftAllRelaysDisconnected fire once every source member
#      is killed (after ovsdb-server's own grace), and clear once they are back.
#
#   database_model_alerts_test.sh [BUILD_DIR]     exit 0 on success
# OVS_BIN_DIR: another ovsdb-server release to run (scripts/ovs-versions.sh), as raft-cluster.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
. "$root/scripts/lib.sh"
claim_ports
scenario_begin model-alerts "${1:-${BUILD_DIR:-$root/build}}"
ovs() { echo "${OVS_BIN_DIR:+$OVS_BIN_DIR/}$1"; }
cleanup() { # the standalone servers and the relay too
  local p
  for p in "$work"/*/*.pid; do [ ! -f "$p" ] || kill "$(cat "$p")" 2>/dev/null || true; done
  scenario_cleanup
}
trap cleanup EXIT

server() { # DIR NAME SOURCE: a detached ovsdb-server on DIR/NAME.{ctl,sock}
  "$(ovs ovsdb-server)" --detach --no-chdir --pidfile="$1/$2.pid" --unixctl="$1/$2.ctl" \
    --remote="punix:$1/$2.sock" --log-file="$1/$2.log" "$3" 2>>"$work/servers.log"
}
prom_port=$(free_port)
alerts() { prom_alerts "$prom_port" "$1" db instance; } # "name state db instance" lines

echo "== 1. a standalone NB and SB, one exporter told to expect one member"
mkdir -p "$work/standalone"
for db in nb sb; do
  "$(ovs ovsdb-tool)" create "$work/standalone/$db.db" "/usr/share/ovn/ovn-$db.ovsschema"
  server "$work/standalone" "$db" "$work/standalone/$db.db"
done
standalone_port=$(free_port)
start_exporter "$bin" "$standalone_port" "$work/standalone" --cluster.expected-members=1 \
  2>>"$work/exporter-standalone.log"
pids+=($!)
OVN_RAFT_FOR_SPEEDUP=30 "$root/scripts/prometheus-demo.sh" start "$work/prometheus" "$prom_port" \
  "http://127.0.0.1:$standalone_port"
models_read() { [ "$(prom_value "$prom_port" 'count(ovn_raft_database_model_info{model="standalone"} and on (instance, db) ovn_raft_up == 1)')" = 2 ]; }
wait_for 60 "both databases served as standalone and up" models_read
# Every alert that can name a standalone database's target has a shipped for: of at most an
# hour (the filesystem's): 120 s here. Over that window, nothing at all.
window=125
sleep "$window"
got=$(alerts "count_over_time(ALERTS[${window}s])")
echo "  alerts over ${window} s: ${got:-none}"
[ -z "$got" ] || fail "alerts on a healthy standalone NB and SB: $got"
[ "$(prom_value "$prom_port" 'sum(ovn_raft_exporter_errors_total)')" = 0 ] || fail "read errors counted: $(prom_value "$prom_port" 'sum(ovn_raft_exporter_errors_total)')"
for p in "$work"/standalone/*.pid; do kill "$(cat "$p")"; rm -f "$p"; done
kill "${pids[0]}"

echo "== 2. a relay of a real 3-member SB cluster"
"$root/scripts/raft-cluster.sh" start "$work/cluster" 3 >"$work/cluster.log" 2>&1 ||
  { cat "$work/cluster.log"; fail "the cluster did not start"; }
# The members serve clients on a TCP port, as ovn-central does (6642).
sb_port=$(free_port)
listen() {
  local m
  for m in 1 2 3; do
    "$(ovs ovs-appctl)" -t "$("$root/scripts/raft-cluster.sh" ctl "$work/cluster" "$m" sb)" \
      ovsdb-server/add-remote "ptcp:$sb_port:127.0.0.$m"
  done
}
listen
mkdir -p "$work/relay"
server "$work/relay" relay "relay:OVN_Southbound:tcp:127.0.0.1:$sb_port,tcp:127.0.0.2:$sb_port,tcp:127.0.0.3:$sb_port"
exp_port=$(free_port 4)
scenario_exporters 3 "$exp_port" --cluster.expected-members=3
"$bin" --web.listen-address="127.0.0.1:$((exp_port + 3))" \
  --ovsdb.database="OVN_Southbound=$work/relay/relay.ctl,$work/relay/relay.sock" 2>>"$work/exporter-relay.log" &
pids+=($!)
urls+=("http://127.0.0.1:$((exp_port + 3))")
"$root/scripts/prometheus-demo.sh" retarget "$work/prometheus" "${urls[@]}"
relay_connected() { [ "$(prom_value "$prom_port" 'ovn_raft_db:relays_connected:count{db="OVN_Southbound"}')" = 1 ]; }
wait_for 90 "the relay recorded as connected" relay_connected
relay_alerts() { alerts 'ALERTS{alertname=~"OVNRaftRelayDisconnected|OVNRaftAllRelaysDisconnected"}'; }
sleep 15
[ -z "$(relay_alerts)" ] || fail "relay alerts while it follows its source: $(relay_alerts)"
echo "  connected, no relay alert"

echo "== every source member killed"
t0=$SECONDS
for m in 1 2 3; do "$root/scripts/raft-cluster.sh" kill "$work/cluster" "$m" sb; done
both_firing() {
  [ "$(relay_alerts | awk '$2 == "firing" {print $1}' | sort -u | tr '\n' ' ')" = "OVNRaftAllRelaysDisconnected OVNRaftRelayDisconnected " ]
}
# ovsdb-server's grace (30 s) before it says disconnected, then the for: (5m / 30).
wait_for 120 "OVNRaftRelayDisconnected and OVNRaftAllRelaysDisconnected firing" both_firing
echo "  both firing after $((SECONDS - t0)) s: $(relay_alerts | tr '\n' ';')"
[ "$(prom_value "$prom_port" 'ovn_raft_up{db="OVN_Southbound", instance="127.0.0.1:'$((exp_port + 3))'"}')" = 1 ] ||
  fail "the relay's exporter no longer reads it"

echo "== the source members restarted"
t0=$SECONDS
for m in 1 2 3; do "$root/scripts/raft-cluster.sh" restart "$work/cluster" "$m" sb; done
listen
none() { [ -z "$(relay_alerts)" ]; }
wait_for 120 "the relay alerts cleared" none
echo "  cleared after $((SECONDS - t0)) s"
echo "PASS"
