#!/usr/bin/env bash
# Leadership transfers at the cadence of snapshots raise nothing, a burst beyond it warns: a
# real 3-member NB cluster under a real Prometheus with the rules and alerts rendered from
# mixin/ with the transfer window divided by SCALE (default 60: a minute of the test stands for
# an hour) and every for: divided by as much (at least 3 evaluations).
# ovsdb-server writes a snapshot at most every 10 to 20 minutes, which no short test waits
# for: the test makes the transfers itself, each the leader stopped gracefully (it hands over
# leadership first, as before a snapshot) and started again (the exporters only read).
#   1. CADENCE transfers (default 4), one every 45 scaled minutes (a busy Kube-OVN NB's
#      snapshot cadence): OVNRaftFrequentLeadershipTransfers never even pending, and no
#      critical alert pending at any transfer (OVNRaftMultipleLeaders);
#   2. then BURST transfers (default 4), one every 16 scaled minutes, faster than snapshots
#      come: OVNRaftFrequentLeadershipTransfers fires.
#
#   transfer_cadence_test.sh [BUILD_DIR]     exit 0 on success
# OVS_BIN_DIR: another ovsdb-server release to run (scripts/ovs-versions.sh), as raft-cluster.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
. "$root/scripts/lib.sh"
claim_ports
scenario_begin transfers "${1:-${BUILD_DIR:-$root/build}}"
scale=${SCALE:-60}
cadence=${CADENCE:-4}
burst=${BURST:-4}
echo "== the rules and alerts from mixin/, the transfer window and every for: divided by $scale"
window=$(jsonnet -J "$root/mixin" -e '(import "mixin.libsonnet")._config.leadershipTransfersWindow' | tr -d '"')
seconds() { # a Prometheus duration (one unit) in seconds
  local v=${1%[smhd]}
  case $1 in *s) echo "$v" ;; *m) echo $((v * 60)) ;; *h) echo $((v * 3600)) ;; *d) echo $((v * 86400)) ;; esac
}
window_s=$(seconds "$window")
scaled_window=$((window_s / scale))
# The rules and the alerts with the scaled window, as YAML, in one rendering (it takes a while).
jsonnet -J "$root/mixin" --ext-code "config={leadershipTransfersWindow: \"${scaled_window}s\"}" \
  -e 'local m = (import "mixin.libsonnet") + { _config+:: std.extVar("config") };
      { rules: m.prometheusRules, alerts: m.prometheusAlerts }' |
  python3 -c 'import json, sys, yaml
both = json.load(sys.stdin)
for name in ("rules", "alerts"):
    yaml.safe_dump(both[name], open(sys.argv[1] + "/" + name + ".full.yaml", "w"), sort_keys=False, width=1000)' "$work"
one_interval "$work/rules.full.yaml" "$work/rules.yaml"
speed_up_for_durations "$work/alerts.full.yaml" "$scale" "$work/alerts.yaml" 6
# Transfers one cadence apart; a burst's, BURST within a scaled window.
gap=$((45 * 60 / scale))
burst_gap=$((16 * 60 / scale))
echo "  window $window -> ${scaled_window} s; cadence one per $gap s, burst one per $burst_gap s"

echo "== a 3-member NB cluster"
RAFT_DBS=nb "$root/scripts/raft-cluster.sh" start "$cluster" 3 >"$work/cluster.log" 2>&1 ||
  { cat "$work/cluster.log"; fail "the cluster did not start"; }
prom_port=$(free_port)
exp_port=$(free_port 3)
targets=""
for m in 1 2 3; do
  "$bin" --web.listen-address="127.0.0.1:$((exp_port + m - 1))" --cluster.expected-members=3 \
    --ovsdb.database="OVN_Northbound=$cluster/m$m/nb.ctl,$cluster/m$m/nb.sock" 2>>"$work/exporter-$m.log" &
  pids+=($!)
  targets+="'127.0.0.1:$((exp_port + m - 1))', "
done
cat >"$work/prometheus.yml" <<YAML
global: {scrape_interval: 2s, scrape_timeout: 1s, evaluation_interval: 2s}
rule_files: [$work/rules.yaml, $work/alerts.yaml]
scrape_configs:
  - job_name: ovn-raft-exporter
    static_configs:
      - targets: [${targets%, }]
        labels: {namespace: transfers}
YAML
scenario_prometheus "$prom_port" "$work/prometheus.yml"
all_reporting() { [ "$(prom_value "$prom_port" 'ovn_raft_cluster:reporters:count')" = 3 ]; }
wait_for 90 "three reporters in the rules" all_reporting

transfers() { prom_value "$prom_port" 'sum(ovn_raft_cluster_member:leadership_transfers:count)'; }
transfer() { "$root/scripts/raft-cluster.sh" transfer "$cluster" nb >>"$work/cluster.log" 2>&1 || fail "no transfer"; }
# seen SECONDS NAME-REGEX [STATE]: the alerts matching that were in STATE within SECONDS.
seen() {
  prom_alerts "$prom_port" "count_over_time(ALERTS{alertname=~\"$2\", alertstate=~\"${3:-pending|firing}\"}[${1}s])" severity
}
# one_every GAP: waits until GAP seconds after the last transfer started.
last=0
one_every() {
  local left=$((last + $1 - SECONDS))
  [ "$left" -le 0 ] || sleep "$left"
  last=$SECONDS
}

echo "== 1. $cadence transfers, one every $gap s"
t0=$SECONDS
for i in $(seq "$cadence"); do
  [ "$i" = 1 ] || one_every "$gap"
  last=$SECONDS
  transfer
  echo "  transfer $i at $((SECONDS - t0)) s: $(transfers) counted in the window"
done
sleep 10 # the last transfer read and counted
w=$((SECONDS - t0 + 4))
got=$(seen "$w" OVNRaftFrequentLeadershipTransfers)
[ -z "$got" ] || fail "transfers at the snapshot cadence raised: $got"
got=$(prom_alerts "$prom_port" "count_over_time(ALERTS{severity=\"critical\"}[${w}s])" severity)
[ -z "$got" ] || fail "critical alerts at clean transfers: $got"
elections=$(prom_value "$prom_port" "changes(ovn_raft_cluster:leader_term:max[${w}s])")
echo "  over $w s: $elections leader changes, OVNRaftFrequentLeadershipTransfers never pending, no critical alert"
[ "$elections" -ge "$cadence" ] || fail "only $elections leader changes for $cadence transfers"

echo "== 2. $burst transfers, one every $burst_gap s"
t1=$SECONDS
for i in $(seq "$burst"); do
  one_every "$burst_gap"
  transfer
  echo "  transfer $i at $((SECONDS - t1)) s: $(transfers) counted in the window"
done
warned() { [ -n "$(seen 4 OVNRaftFrequentLeadershipTransfers firing)" ]; }
wait_for 60 "OVNRaftFrequentLeadershipTransfers firing after the burst" warned
echo "  firing $((SECONDS - t1)) s after the burst began: $(seen 4 OVNRaftFrequentLeadershipTransfers firing)"
got=$(prom_alerts "$prom_port" "count_over_time(ALERTS{severity=\"critical\"}[$((SECONDS - t0 + 4))s])" severity)
[ -z "$got" ] || fail "critical alerts at clean transfers: $got"
echo "PASS"
