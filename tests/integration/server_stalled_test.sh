#!/usr/bin/env bash
# A member whose ovsdb-server is starved, under a real Prometheus with the shipped rules and
# alerts (for: divided by 30, scripts/prometheus-demo.sh), on a real 3-member NB/SB cluster:
#   1. healthy: every member answers its exporter in time, OVNRaftServerStalled not even pending;
#   2. the NB leader's ovsdb-server, whichever member leads, stopped for STOP_S seconds, then run
#      RUN_S, again and again (SIGSTOP, SIGCONT: what a CPU quota or a starved node does to it,
#      at its worst): an election storm. The late answers show in
#      ovn_raft_ovsdb_server_response_seconds, OVNRaftServerStalled fires naming members that
#      were stopped, on NB only (not their SB servers), and it fires before or with
#      OVNRaftFrequentElections, the elections the stalls cause;
#   3. the cycles ended: the figure falls back and the alert resolves once its window has passed
#      (not awaited with STALLED_AWAIT_RESOLVED=0, as the test command runs it).
#
#   server_stalled_test.sh [BUILD_DIR]     exit 0 on success
# OVS_BIN_DIR: another ovsdb-server release to run (scripts/ovs-versions.sh), as raft-cluster.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
. "$root/scripts/lib.sh"
claim_ports
scenario_begin stalled "${1:-${BUILD_DIR:-$root/build}}"
STOP_S=${STOP_S:-2}
RUN_S=${RUN_S:-3}
starver=
cleanup() {
  local p
  [ -z "$starver" ] || kill "$starver" 2>/dev/null || true
  # Never leave a member stopped.
  for p in "$cluster"/m*/*.pid; do [ -f "$p" ] && kill -CONT "$(cat "$p")" 2>/dev/null; done || true
  scenario_cleanup
}
trap cleanup EXIT

prom_port=$(free_port)
# "name state db instance server_id" lines of QUERY over ALERTS
alerts() { prom_alerts "$prom_port" "$1" db instance server_id; }
stalled='ALERTS{alertname="OVNRaftServerStalled"}'

echo "== 1. a healthy 3-member NB/SB cluster"
"$root/scripts/raft-cluster.sh" start "$cluster" 3 >"$work/cluster.log" 2>&1 ||
  { cat "$work/cluster.log"; fail "the cluster did not start"; }
exp_port=$(free_port 3)
scenario_exporters 3 "$exp_port" --cluster.expected-members=3
OVN_RAFT_FOR_SPEEDUP=30 "$root/scripts/prometheus-demo.sh" start "$work/prometheus" "$prom_port" "${urls[@]}"
all_read() {
  [ "$(prom_value "$prom_port" 'count(ovn_raft_ovsdb_server_response_seconds * on (instance, db) group_left ovn_raft_election_timer_seconds)')" = 6 ]
}
wait_for 90 "every member's answer time and election timer recorded" all_read
# The server's own count of long turns, where its release has it (3.3 and later).
version=$(prom_label "$prom_port" 'ovn_raft_ovsdb_server_build_info' version)
long_polls=$(prom_value "$prom_port" 'count(ovn_raft_ovsdb_server_long_poll_intervals_total)')
echo "  Open vSwitch $version; members with the long-poll count: $long_polls"
case "$version" in
  3.[0-2].* | 2.*) [ "$long_polls" = none ] || fail "a release without the counter has its series" ;;
  *) [ "$long_polls" = 6 ] || fail "expected the long-poll count of every member, got $long_polls" ;;
esac
t0=$SECONDS
sleep 20
got=$(alerts "count_over_time(${stalled}[$((SECONDS - t0 + 5))s])")
[ -z "$got" ] || fail "a healthy cluster raised: $got"
echo "  healthy for $((SECONDS - t0)) s: OVNRaftServerStalled not even pending, answers in at most" \
  "$(prom_value "$prom_port" "max(max_over_time(ovn_raft_ovsdb_server_response_seconds[$((SECONDS - t0))s]))") s"

echo "== 2. the NB leader, whichever member leads, stopped ${STOP_S} s, then run ${RUN_S} s, again and again"
# A member stopped while it leads loses the leadership; the next leader is stopped in turn: an
# election storm, each election caused by a stall.
nb_ctl() { "$root/scripts/raft-cluster.sh" ctl "$cluster" "$1" nb; }
role() { timeout 2 ovs-appctl -t "$(nb_ctl "$1")" cluster/status OVN_Northbound 2>/dev/null | sed -n 's/^Role: //p'; }
term0=$(prom_value "$prom_port" 'max(ovn_raft_term{db="OVN_Northbound"})')
echo "  NB at term $term0"
(
  while :; do
    for m in 1 2 3; do
      [ "$(role "$m")" = leader ] || continue
      p=$(cat "$cluster/m$m/nb.pid")
      echo "$m" >>"$work/stopped"
      kill -STOP "$p" 2>/dev/null || exit 0
      sleep "$STOP_S"
      kill -CONT "$p" 2>/dev/null || exit 0
      break
    done
    sleep "$RUN_S"
  done
) &
starver=$!
t0=$SECONDS
stalled_at='' elections_at='' elected_at=''
while [ -z "$stalled_at" ] || [ -z "$elections_at" ]; do
  [ $((SECONDS - t0)) -lt 240 ] || break
  if [ -z "$elected_at" ] &&
    [ "$(prom_value "$prom_port" "max(ovn_raft_term{db=\"OVN_Northbound\"}) > $term0")" != none ]; then
    elected_at=$((SECONDS - t0))
  fi
  if [ -z "$stalled_at" ] &&
    [ -n "$(alerts "${stalled%\}}, alertstate=\"firing\"}")" ]; then
    stalled_at=$((SECONDS - t0))
  fi
  if [ -z "$elections_at" ] &&
    [ -n "$(alerts 'ALERTS{alertname="OVNRaftFrequentElections", alertstate="firing"}')" ]; then
    elections_at=$((SECONDS - t0))
  fi
  sleep 1
done
kill "$starver" 2>/dev/null || true
wait "$starver" 2>/dev/null || true
starver=
for p in "$cluster"/m*/nb.pid; do kill -CONT "$(cat "$p")" 2>/dev/null || true; done
stopped=$(sort -u "$work/stopped" | tr '\n' ' ')
echo "  stopped while leading: members $stopped($(wc -l <"$work/stopped") times); NB at term" \
  "$(prom_value "$prom_port" 'max(ovn_raft_term{db="OVN_Northbound"})')"
echo "  a new term after ${elected_at:-?} s; OVNRaftServerStalled firing after ${stalled_at:-?} s," \
  "OVNRaftFrequentElections after ${elections_at:-?} s"
figure='max_over_time(ovn_raft_ovsdb_server_response_seconds{db="OVN_Northbound"}[5m])'
echo "  the stall figure (answered after up to, s; election timer 1 s; long turns counted):"
prom_query "$prom_port" "$figure * on (instance, db) group_left (server_id) ovn_raft_server_info" |
  jq -r '.data.result[] | "    \(.metric.instance) \(.metric.server_id) \(.value[1])"'
prom_query "$prom_port" 'ovn_raft_ovsdb_server_long_poll_intervals_total{db="OVN_Northbound"}' |
  jq -r '.data.result[] | "    \(.metric.instance) long turns \(.value[1])"'
[ -n "$stalled_at" ] || fail "OVNRaftServerStalled not firing within 240 s"
[ -n "$elections_at" ] || fail "OVNRaftFrequentElections not firing within 240 s: the stalls did not matter"
# Before or with the elections' alert: firing no later than it, within the poll's second.
[ "$stalled_at" -le $((elections_at + 1)) ] ||
  fail "OVNRaftFrequentElections fired after $elections_at s, before its cause after $stalled_at s"
# The members stopped, on NB, and no other: neither their SB servers nor a member never stopped.
got=$(alerts "$stalled")
echo "  named: $(echo "$got" | tr '\n' ';')"
[ -n "$got" ] || fail "OVNRaftServerStalled no longer firing"
named=0
while read -r _ _ db instance _; do
  m=$((${instance##*:} - exp_port + 1))
  [ "$db" = OVN_Northbound ] || fail "a database never stopped named: $db on $instance"
  grep -qx "$m" "$work/stopped" || fail "member $m ($instance) named, never stopped"
  [ "$(prom_value "$prom_port" "max_over_time(ovn_raft_ovsdb_server_response_seconds{db=\"OVN_Northbound\", instance=\"$instance\"}[5m]) >= 0.5")" != none ] ||
    fail "member $m named without its late answers in its figure"
  named=$((named + 1))
done <<<"$got"
echo "  $named of the members stopped named, each with its figure"

echo "== 3. the cycles ended"
t0=$SECONDS
recent='max(max_over_time(ovn_raft_ovsdb_server_response_seconds[20s]))'
in_time() { [ "$(prom_value "$prom_port" "$recent < 0.5")" != none ]; }
wait_for 60 "the member's answers back in time" in_time
back=$((SECONDS - t0))
# The window is 5 minutes: the alert holds through it, and goes once the stalls leave it.
sleep 10
got=$(alerts "${stalled%\}}, alertstate=\"firing\"}")
[ -n "$got" ] || {
  prom_query "$prom_port" 'max_over_time(ovn_raft_ovsdb_server_response_seconds{db="OVN_Northbound"}[5m1s])' | jq -c '.data.result[] | [.metric.instance, .value[1]]'
  prom_query "$prom_port" 'ovn_raft_election_timer_seconds{db="OVN_Northbound"}' | jq -c '.data.result[] | [.metric.instance, .value[1]]'
  prom_query "$prom_port" 'ovn_raft_server_info{db="OVN_Northbound"}' | jq -c '.data.result[] | .metric'
  fail "OVNRaftServerStalled resolved within 10 s of the last stall, before its window passed"
}
# The test command stops here (STALLED_AWAIT_RESOLVED=0): the window's end is the rule test's
# (alerts/tests/server-stalled-test.yaml), and waiting for it here takes five minutes.
if [ "${STALLED_AWAIT_RESOLVED:-1}" = 0 ]; then
  echo "  answers back in time after $back s at most; still firing 10 s later, as its window holds"
  echo "PASS"
  exit 0
fi
# Gone, as a query that succeeded says: a failed query is no answer.
resolved() {
  [ "$(prom_query "$prom_port" "count($stalled)" | jq -r '.status + ":" + (.data.result | length | tostring)')" = success:0 ]
}
wait_for 420 "OVNRaftServerStalled resolved once the window passed" resolved
echo "  answers back in time after $back s at most; resolved after $((SECONDS - t0)) s"
echo "PASS"
