#!/usr/bin/env bash
# A dead member whose exporter crash-loops is paged as one whose exporter stays up, under a real
# Prometheus with the shipped rules and alerts (for: divided by 10, at least 3 evaluations), on
# a real NB/SB cluster of MEMBERS members (3 or 5; on 5, one loss leaves the quorum rules silent,
# so the member-down alerts are all that name it).
# The last member has one exporter per database: its SB exporter stays up (the run without
# restarts) while its NB exporter is killed and started again every RESTART_EVERY seconds
# (default 20), down RESTART_GAP seconds (default 4) each time: a crash-looping sidecar, a
# rollout. The member is killed; every alert that fires for its SB (OVNRaftDatabaseUnreadable,
# OVNRaftMemberNotReporting and whatever else the rules raise for a dead member) must fire for
# its NB too, not later than one restart period after, and stay firing across the restarts that
# follow (in as many evaluations as SB's, but for three).
#
#   restarting_exporter_test.sh [BUILD_DIR] [MEMBERS]     exit 0 on success
# OVS_BIN_DIR: another ovsdb-server release to run (scripts/ovs-versions.sh), as raft-cluster.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
. "$root/scripts/lib.sh"
claim_ports
scenario_begin restarting "${1:-${BUILD_DIR:-$root/build}}"
members=${2:-3}
restart_every=${RESTART_EVERY:-20}
restart_gap=${RESTART_GAP:-4}
cleanup() {
  [ ! -f "$work/nb-exporter.pid" ] || kill "$(cat "$work/nb-exporter.pid")" 2>/dev/null || true
  scenario_cleanup
}
trap cleanup EXIT

echo "== a $members-member NB/SB cluster; member $members's NB and SB each under an exporter of its own"
"$root/scripts/raft-cluster.sh" start "$cluster" "$members" >"$work/cluster.log" 2>&1 ||
  { cat "$work/cluster.log"; fail "the cluster did not start"; }
prom_port=$(free_port)
exp_port=$(free_port $((members + 1)))
scenario_exporters $((members - 1)) "$exp_port" --cluster.expected-members="$members"
victim="$cluster/m$members"
nb_port=$((exp_port + members - 1))
sb_port=$((exp_port + members))
start_nb_exporter() {
  "$bin" --web.listen-address="127.0.0.1:$nb_port" --cluster.expected-members="$members" \
    --ovsdb.database="OVN_Northbound=$victim/nb.ctl,$victim/nb.sock" 2>>"$work/exporter-nb.log" &
  echo $! >"$work/nb-exporter.pid"
  disown $! # killed on purpose: no word from the shell about it
}
start_nb_exporter
"$bin" --web.listen-address="127.0.0.1:$sb_port" --cluster.expected-members="$members" \
  --ovsdb.database="OVN_Southbound=$victim/sb.ctl,$victim/sb.sock" 2>>"$work/exporter-sb.log" &
pids+=($!)
urls+=("http://127.0.0.1:$nb_port" "http://127.0.0.1:$sb_port")
OVN_RAFT_FOR_SPEEDUP=10 OVN_RAFT_FOR_MIN=6 "$root/scripts/prometheus-demo.sh" start "$work/prometheus" "$prom_port" "${urls[@]}"
all_reporting() {
  [ "$(prom_value "$prom_port" "count(ovn_raft_cluster:reporters:count == $members)")" = 2 ]
}
wait_for 90 "$members reporters per database in the rules" all_reporting
sleep 10
got=$(prom_alerts "$prom_port" 'ALERTS{alertstate="firing"}' db)
[ -z "$got" ] || fail "alerts firing on the healthy cluster: $got"

echo "== member $members killed; its NB exporter restarted every $restart_every s"
"$root/scripts/raft-cluster.sh" kill "$cluster" "$members"
t0=$SECONDS
# Down for RESTART_GAP s each time (a container's restart, its back-off): at least one scrape
# fails, which ends the series every alert of that exporter hangs on.
(
  while sleep $((restart_every - restart_gap)); do
    kill -9 "$(cat "$work/nb-exporter.pid")" 2>/dev/null || true
    sleep "$restart_gap"
    start_nb_exporter
    echo restart >>"$work/restarts"
  done
) &
pids+=($!)

# firing DB: the names of the alerts firing for that database (ExporterDown names no database).
firing() {
  prom_alerts "$prom_port" "ALERTS{alertstate=\"firing\", db=\"$1\"}" | awk '{print $1}' | sort -u | tr '\n' ' '
}
declare -A first_nb first_sb
record() { # the first time each alert is seen firing, per database
  local a
  for a in $(firing OVN_Southbound); do [ -n "${first_sb[$a]:-}" ] || first_sb[$a]=$((SECONDS - t0)); done
  for a in $(firing OVN_Northbound); do [ -n "${first_nb[$a]:-}" ] || first_nb[$a]=$((SECONDS - t0)); done
}
baseline_paged() {
  record
  [ -n "${first_sb[OVNRaftDatabaseUnreadable]:-}" ] && [ -n "${first_sb[OVNRaftMemberNotReporting]:-}" ]
}
# for: 15m / 10, after the rules see the member silent.
wait_for 300 "the SB alerts (exporter up) for the dead member" baseline_paged
# Whatever else fires for SB soon after belongs to the baseline too.
for _ in $(seq 5); do record; sleep 1; done
baseline=$(printf '%s\n' "${!first_sb[@]}" | sort | tr '\n' ' ')
echo "  SB (exporter up) fired within $((SECONDS - t0)) s: $baseline"
nb_paged() {
  record
  local a
  for a in $baseline; do [ -n "${first_nb[$a]:-}" ] || return 1; done
}
t1=$SECONDS
until nb_paged; do
  [ $((SECONDS - t1)) -lt $((restart_every * 2)) ] ||
    fail "not the same alerts for NB (exporter restarting) within $((restart_every * 2)) s: $(firing OVN_Northbound)"
  sleep 1
done
for a in $baseline; do
  echo "  $a: SB firing at $((first_sb[$a])) s, NB at $((first_nb[$a])) s"
  [ "${first_nb[$a]}" -le $((first_sb[$a] + restart_every)) ] ||
    fail "$a fired for NB (restarting exporter) more than $restart_every s after SB"
done

echo "== across two more restarts: every NB alert firing as long as SB's"
n0=$(wc -l <"$work/restarts")
w=$((restart_every * 2 + 2))
sleep "$w"
n=$(wc -l <"$work/restarts")
[ $((n - n0)) -ge 2 ] || fail "the NB exporter restarted $((n - n0)) times, not 2 (loaded machine?)"
# The evaluations each was firing at: a loaded machine's failed scrapes may cut both databases'
# alerts alike; a restart that ends NB's episode costs it a whole for: of them.
samples() { prom_value "$prom_port" "count_over_time(ALERTS{alertstate=\"firing\", db=\"$1\", alertname=\"$2\"}[${w}s])"; }
for a in $baseline; do
  sb=$(samples OVN_Southbound "$a")
  nb=$(samples OVN_Northbound "$a")
  echo "  $a firing in $sb evaluations of ${w} s for SB, $nb for NB"
  [ "${nb/none/0}" -ge $((${sb/none/0} - 3)) ] || fail "$a firing for NB in $nb evaluations, for SB in $sb"
done
echo "  $n restarts in all"
echo "PASS"
