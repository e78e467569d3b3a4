#!/usr/bin/env bash
# A leader whose disk is slow, under writes, named by an alert: a real 3-member NB/SB cluster,
# a real Prometheus with the shipped rules and alerts (for: divided by 30, at least 3
# evaluations). A steady write load on NB first raises no alert; then every fsync of NB's
# leader returns half a second late (scripts/raft-cluster.sh slow-disk), and within
# SLOW_LEADER_BOUND seconds (default 120) a firing alert must name that member (its server ID
# or its exporter). Prints which alerts named it, when, and whether it still leads.
#
#   slow_leader_test.sh [BUILD_DIR]     exit 0 on success
# OVS_BIN_DIR: another ovsdb-server release to run (scripts/ovs-versions.sh), as raft-cluster.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
. "$root/scripts/lib.sh"
claim_ports
scenario_begin slow-leader "${1:-${BUILD_DIR:-$root/build}}"
bound=${SLOW_LEADER_BOUND:-120}

echo "== a 3-member NB/SB cluster under a write load on NB"
"$root/scripts/raft-cluster.sh" start "$cluster" 3 >"$work/cluster.log" 2>&1 ||
  { cat "$work/cluster.log"; fail "the cluster did not start"; }
prom_port=$(free_port)
exp_port=$(free_port 3)
scenario_exporters 3 "$exp_port" --cluster.expected-members=3
OVN_RAFT_FOR_SPEEDUP=30 OVN_RAFT_FOR_MIN=6 "$root/scripts/prometheus-demo.sh" start "$work/prometheus" "$prom_port" "${urls[@]}"
all_reporting() { [ "$(prom_value "$prom_port" 'count(ovn_raft_cluster:reporters:count == 3)')" = 2 ]; }
wait_for 90 "three reporters per database in the rules" all_reporting
"$root/scripts/raft-cluster.sh" load "$cluster" nb 600 0.1 &
pids+=($!)
sleep 20
got=$(prom_alerts "$prom_port" 'ALERTS{alertstate="firing", severity!="info"}' db)
[ -z "$got" ] || fail "alerts firing under the load alone: $got"
leader=$("$root/scripts/raft-cluster.sh" leader "$cluster" nb)
instance="127.0.0.1:$((exp_port + leader - 1))"
sid=$(prom_label "$prom_port" "ovn_raft_server_info{db=\"OVN_Northbound\", instance=\"$instance\"}" server_id)
[ "$sid" != none ] || fail "no server ID for member $leader"
echo "  no alert firing; NB's leader: member $leader ($sid, exporter $instance)"

echo "== the leader's fsync delayed by 500 ms"
t0=$SECONDS
"$root/scripts/raft-cluster.sh" slow-disk "$cluster" "$leader" nb 500000
naming() { # the firing alerts that name the leader: "name db" lines
  prom_query "$prom_port" 'ALERTS{alertstate="firing"}' |
    jq -r --arg sid "$sid" --arg inst "$instance" '.data.result[].metric
      | select(.server_id == $sid or .member_id == $sid or (.instance == $inst and (.db // "OVN_Northbound") == "OVN_Northbound"))
      | "\(.alertname) \(.db // "-") \(.reason // "")"' | sort -u
}
while [ -z "$(naming)" ]; do
  [ $((SECONDS - t0)) -lt "$bound" ] || fail "no firing alert named the slow leader $sid within $bound s" \
    "(firing: $(prom_alerts "$prom_port" 'ALERTS{alertstate="firing"}' db server_id member_id | tr '\n' ';'))"
  sleep 1
done
now_leader=$("$root/scripts/raft-cluster.sh" leader "$cluster" nb || echo none)
echo "  named after $((SECONDS - t0)) s by: $(naming | tr '\n' ';')"
echo "  NB's leader now: member $now_leader"
echo "PASS"
