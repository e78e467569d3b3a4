#!/usr/bin/env bash
# A database rebuilt under a new cluster ID, under a real Prometheus with the shipped rules and
# alerts (for: divided by 30, scripts/prometheus-demo.sh), on a real 3-member NB/SB cluster:
#   1. a write load on NB raises its index past recreatedIndexEntries; a member re-created with
#      a fresh database (a new server ID, its index low while it catches up) raises nothing;
#   2. every member stopped, the database files removed and the cluster created again on the
#      same member directories and addresses: OVNRaftClusterRecreated fires for NB, naming the
#      old and the new cluster ID; not for SB (no load: its index went back by a few entries);
#      once settled, no other alert fires.
#
#   recreated_cluster_test.sh [BUILD_DIR]     exit 0 on success
# OVS_BIN_DIR: another ovsdb-server release to run (scripts/ovs-versions.sh), as raft-cluster.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
. "$root/scripts/lib.sh"
claim_ports
scenario_begin recreated "${1:-${BUILD_DIR:-$root/build}}"

prom_port=$(free_port)
# "name state db cluster_id previous_cluster_id" lines of QUERY over ALERTS
alerts() { prom_alerts "$prom_port" "$1" db cluster_id previous_cluster_id; }

echo "== 1. a 3-member NB/SB cluster under a write load"
"$root/scripts/raft-cluster.sh" start "$cluster" 3 >"$work/cluster.log" 2>&1 ||
  { cat "$work/cluster.log"; fail "the cluster did not start"; }
exp_port=$(free_port 3)
scenario_exporters 3 "$exp_port" --cluster.expected-members=3
OVN_RAFT_FOR_SPEEDUP=30 "$root/scripts/prometheus-demo.sh" start "$work/prometheus" "$prom_port" "${urls[@]}"
nb_index='ovn_raft_cluster:database_index:max{db="OVN_Northbound"}'
all_read() {
  [ "$(prom_value "$prom_port" 'count(ovn_raft_database_index * on (namespace, instance, db) group_left ovn_raft_instance:server_info:max)')" = 6 ]
}
wait_for 90 "every member's NB and SB index recorded" all_read
"$root/scripts/raft-cluster.sh" load "$cluster" nb 150 0.01 &
load_pid=$!
high() { [ "$(prom_value "$prom_port" "$nb_index > 250")" != none ]; }
wait_for 150 "NB's index past 250" high
"$root/scripts/raft-cluster.sh" unload "$cluster"
wait "$load_pid" || true
old_cid=$(prom_label "$prom_port" "$nb_index" cluster_id)
echo "  NB cluster $old_cid at index $(prom_value "$prom_port" "$nb_index")"

echo "== member 3 re-created with a fresh database"
t0=$SECONDS
old_sid=$(prom_label "$prom_port" 'ovn_raft_instance:server_info:max{db="OVN_Northbound", instance="127.0.0.1:'$((exp_port + 2))'"}' server_id)
"$root/scripts/raft-cluster.sh" restart-fresh "$cluster" 3 >>"$work/cluster.log" 2>&1
"$root/scripts/raft-cluster.sh" wait "$cluster" >>"$work/cluster.log" 2>&1
rejoined() {
  local sid
  sid=$(prom_label "$prom_port" 'ovn_raft_instance:server_info:max{db="OVN_Northbound", instance="127.0.0.1:'$((exp_port + 2))'", cluster_id="'"$old_cid"'"} and on (namespace, instance, db) ovn_raft_database_index' server_id)
  [ "$sid" != none ] && [ "$sid" != "$old_sid" ]
}
wait_for 90 "member 3 recorded under a new server ID in cluster $old_cid" rejoined
sleep 20 # twice the for: (5m / 30)
got=$(alerts "count_over_time(ALERTS{alertname=\"OVNRaftClusterRecreated\"}[$((SECONDS - t0 + 5))s])")
[ -z "$got" ] || fail "a re-created member raised: $got"
echo "  member 3 rejoined as a new server ID; OVNRaftClusterRecreated not even pending"

echo "== 2. every member stopped, the databases removed, the cluster created again"
base_port=$(sed -n 's/^BASE_PORT=//p' "$cluster/env")
t0=$SECONDS
"$root/scripts/raft-cluster.sh" stop "$cluster"
rm -f "$cluster"/m*/nb.db "$cluster"/m*/sb.db
"$root/scripts/raft-cluster.sh" start "$cluster" 3 "$base_port" >>"$work/cluster.log" 2>&1 ||
  { cat "$work/cluster.log"; fail "the new cluster did not start"; }
echo "  the new cluster up after $((SECONDS - t0)) s"
rebuilt() {
  [ "$(alerts 'ALERTS{alertname="OVNRaftClusterRecreated", alertstate="firing"}')" != "" ]
}
# What the rules saw, should the alert not come: which cluster each exporter last read, each
# cluster's highest index, the alert's state, and whether Prometheus kept up with its rules.
explain() {
  local q
  for q in 'ovn_raft_instance:server_info:last' 'ovn_raft_cluster:database_index:max' \
    'ovn_raft_cluster:previous_cluster_ahead:entries' 'ovn_raft_up == 0' 'up == 0' \
    'ALERTS{alertname="OVNRaftClusterRecreated"}'; do
    echo "  $q:"
    prom_query "$prom_port" "$q" | jq -r '.data.result[] | "    \(.metric | del(.__name__, .job, .namespace) | to_entries | map("\(.key)=\(.value)") | join(" ")) \(.value[1])"'
  done
  curl -s "http://127.0.0.1:$prom_port/metrics" |
    grep -E '^prometheus_rule_group_(last_duration_seconds|iterations_missed_total)' | sed 's/^/  /'
}
until rebuilt; do
  [ $((SECONDS - t0)) -lt 120 ] || { explain; fail "OVNRaftClusterRecreated not firing within 120 s"; }
  sleep 1
done
new_cid=$(prom_label "$prom_port" "$nb_index" cluster_id)
got=$(alerts 'ALERTS{alertname="OVNRaftClusterRecreated", alertstate="firing"}')
echo "  firing after $((SECONDS - t0)) s: $got"
[ "$got" = "OVNRaftClusterRecreated firing OVN_Northbound $new_cid $old_cid" ] ||
  fail "expected NB's cluster $old_cid replaced by $new_cid only, got: $got"
[ "$new_cid" != "$old_cid" ] || fail "the cluster ID did not change"
echo "  NB cluster $old_cid replaced by $new_cid, $(prom_value "$prom_port" 'ovn_raft_cluster:previous_cluster_ahead:entries') entries below"

echo "== settled: nothing else fires"
sleep 40
got=$(alerts 'ALERTS{alertstate="firing"}')
echo "  firing: $(echo "$got" | tr '\n' ';')"
[ "$got" = "OVNRaftClusterRecreated firing OVN_Northbound $new_cid $old_cid" ] ||
  fail "other alerts firing once the new cluster settled: $got"
echo "PASS"
