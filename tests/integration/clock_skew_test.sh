#!/usr/bin/env bash
# An exporter whose wall clock is off changes no verdict and no count: three real 3-member NB
# clusters side by side under one real Prometheus with the shipped rules and alerts (for:
# divided by 30, at least 3 evaluations), each in a namespace of its own:
#   control  every exporter on the machine's clock;
#   ahead    member 3's exporter started with its clock 10 minutes ahead (libfaketime);
#   stepped  member 3's exporter's clock stepped 10 minutes ahead, back, 10 minutes behind and
#            back, over and over (an unsynchronised node corrected by NTP), and restarted once.
# The same scenarios run on the three at once: member 2 down; member 3's disk hung under
# writes; two leadership transfers (the leader stopped gracefully, then restarted). After each,
# an alert that fired in one namespace over the scenario (OVNRaftExporterClockSkew aside) must
# have been at least pending in the others, and at the end each cluster's count of leadership
# transfers must be what its servers logged, its elections by timeout (term changes less
# transfers) never below 0.
#
#   clock_skew_test.sh [BUILD_DIR]     exit 0 on success
# OVS_BIN_DIR: another ovsdb-server release to run (scripts/ovs-versions.sh), as raft-cluster.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
. "$root/scripts/lib.sh"
claim_ports
scenario_begin clock-skew "${1:-${BUILD_DIR:-$root/build}}"
namespaces=(control ahead stepped)
cleanup() { # three clusters, each in $work/NS; the exporters with pid files, Prometheus in $pids
  local p ns
  for p in "$work"/*.pid; do [ ! -f "$p" ] || kill "$(cat "$p")" 2>/dev/null || true; done
  for ns in "${namespaces[@]}"; do
    "$root/scripts/raft-cluster.sh" unload "$work/$ns" >/dev/null 2>&1 || true
    "$root/scripts/raft-cluster.sh" stop "$work/$ns" >/dev/null 2>&1 || true
  done
  scenario_cleanup
}
trap cleanup EXIT
libfaketime=""
for f in /usr/lib/*/faketime/libfaketime.so.1; do [ ! -f "$f" ] || libfaketime=$f; done
[ -n "$libfaketime" ] || fail "no libfaketime (scripts/install-deps.sh)"

echo "== three 3-member NB clusters: ${namespaces[*]}"
for ns in "${namespaces[@]}"; do
  RAFT_DBS=nb "$root/scripts/raft-cluster.sh" start "$work/$ns" 3 >>"$work/cluster.log" 2>&1 ||
    { cat "$work/cluster.log"; fail "cluster $ns did not start"; }
done
prom_port=$(free_port)
exp_port=$(free_port 9)
port_of() { # NS MEMBER: its exporter's port
  local i
  for i in "${!namespaces[@]}"; do [ "${namespaces[$i]}" != "$1" ] || echo $((exp_port + 3 * i + $2 - 1)); done
}
# exporter NS MEMBER: NB's exporter of that member, on the clock in $work/NS.clock when there is
# one (libfaketime reads it at every call, so that writing it steps the clock).
exporter() {
  local ns=$1 m=$2 clock=() d="$work/$1/m$2"
  [ ! -f "$work/$ns.clock" ] || clock=(env FAKETIME_TIMESTAMP_FILE="$work/$ns.clock" FAKETIME_NO_CACHE=1
    FAKETIME_DONT_FAKE_MONOTONIC=1 LD_PRELOAD="$libfaketime")
  "${clock[@]}" "$bin" --web.listen-address="127.0.0.1:$(port_of "$ns" "$m")" --cluster.expected-members=3 \
    --ovsdb.database="OVN_Northbound=$d/nb.ctl,$d/nb.sock" 2>>"$work/exporter-$ns-$m.log" &
  echo $! >"$work/$ns-$m.pid"
}
echo "+600" >"$work/ahead.clock"
echo "+0" >"$work/stepped.clock"
targets=""
for ns in "${namespaces[@]}"; do
  list=""
  for m in 1 2 3; do
    exporter "$ns" "$m"
    list+="'127.0.0.1:$(port_of "$ns" "$m")', "
  done
  targets+="      - targets: [${list%, }]
        labels: {namespace: $ns}
"
done
speed_up_for_durations "$root/alerts/ovn-raft-alerts.yaml" 30 "$work/alerts.yaml" 6
one_interval "$root/alerts/ovn-raft-rules.yaml" "$work/rules.yaml"
cat >"$work/prometheus.yml" <<YAML
global: {scrape_interval: 2s, scrape_timeout: 1s, evaluation_interval: 2s}
rule_files: [$work/rules.yaml, $work/alerts.yaml]
scrape_configs:
  - job_name: ovn-raft-exporter
    static_configs:
$targets
YAML
scenario_prometheus "$prom_port" "$work/prometheus.yml"
all_reporting() { [ "$(prom_value "$prom_port" 'count(ovn_raft_cluster:reporters:count == 3)')" = 3 ]; }
wait_for 120 "three reporters in each cluster in the rules" all_reporting
t_start=$SECONDS

# The stepped clock: ahead, back, behind, back, every 10 s.
(
  while :; do
    for step in +600 +0 -600 +0; do
      sleep 10
      echo "$step" >"$work/stepped.clock.new" && mv "$work/stepped.clock.new" "$work/stepped.clock"
      echo "$step" >>"$work/steps"
    done
  done
) &
pids+=($!)
skew() { prom_value "$prom_port" "round(ovn_raft_exporter_time_seconds{instance=\"127.0.0.1:$(port_of "$1" 3)\"}
  - timestamp(ovn_raft_exporter_time_seconds{instance=\"127.0.0.1:$(port_of "$1" 3)\"}))"; }
ahead_seen() { [ "$(skew ahead)" != none ] && [ "$(skew ahead)" -ge 590 ]; }
wait_for 30 "member 3's exporter in ahead 10 minutes ahead of Prometheus" ahead_seen
echo "  member 3's exporter: ahead by $(skew ahead) s, stepped by $(skew stepped) s, control by $(skew control) s"

# fired NS SECONDS [STATE [NAMES [BUT]]]: the alerts whose names match NAMES and not BUT
# (default: the clock skew's) that were in STATE (default firing) in NS over the last SECONDS.
fired() {
  prom_alerts "$prom_port" "count_over_time(ALERTS{alertstate=~\"${3:-firing}\", namespace=\"$1\", alertname=~\"${4:-.*}\", alertname!~\"${5:-OVNRaftExporterClockSkew}\"}[${2}s])" |
    awk '{print $1}' | sort -u | tr '\n' ' '
}
firing() { fired "$1" 3; }
has() { [[ " $(firing control)" == *" $1 "* ]]; }
# compare WHAT SINCE [NAMES [BUT]]: what fired since SINCE in one namespace (of the alerts
# fired takes) was at least pending in each other one, else fail. (A clock that silences an
# alert leaves it no series at all; an episode that lasts about its for: may fire in one
# cluster and stay pending in another.)
compare() {
  local w=$((SECONDS - $2 + 4)) names=${3:-.*} but=${4:-OVNRaftExporterClockSkew} a b x
  echo "  $1, firing over ${w} s: control: $(fired control "$w" firing "$names" "$but")"
  for a in "${namespaces[@]}"; do
    for b in "${namespaces[@]}"; do
      [ "$a" != "$b" ] || continue
      for x in $(fired "$a" "$w" firing "$names" "$but"); do
        [[ " $(fired "$b" "$w" 'pending|firing' "$names" "$but")" == *" $x "* ]] ||
          fail "$1: $x fired in $a, not even pending in $b (firing in $b: $(fired "$b" "$w" firing "$names" "$but"))"
      done
    done
  done
}
# Nothing but information (a release's known defects, the skew itself) firing anywhere.
all_clear() {
  [ -z "$(prom_alerts "$prom_port" 'ALERTS{alertstate="firing", severity!="info"}')" ]
}

echo "== 1. member 2 down"
t=$SECONDS
for ns in "${namespaces[@]}"; do "$root/scripts/raft-cluster.sh" kill "$work/$ns" 2; done
member_down() { has OVNRaftDatabaseUnreadable && has OVNRaftMemberNotReporting; }
wait_for 150 "the member-down alerts in control" member_down
sleep 10 # the others' episodes, a scrape or two behind
compare "member 2 down" "$t"
for ns in "${namespaces[@]}"; do "$root/scripts/raft-cluster.sh" restart "$work/$ns" 2 nb; done
wait_for 120 "every alert cleared once member 2 is back" all_clear

echo "== 2. member 3's disk hung under writes"
t=$SECONDS
for ns in "${namespaces[@]}"; do
  "$root/scripts/raft-cluster.sh" load "$work/$ns" nb 600 0.3 2>>"$work/load.log" &
  pids+=($!)
done
sleep 5
for ns in "${namespaces[@]}"; do "$root/scripts/raft-cluster.sh" slow-disk "$work/$ns" 3 nb 600000000; done
# Within seconds when the hung member stops answering; up to 2 minutes when only its log stalls
# (not_catching_up).
wait_for 180 "OVNRaftMemberUnheard in control" has OVNRaftMemberUnheard
sleep 10
for ns in "${namespaces[@]}"; do "$root/scripts/raft-cluster.sh" unload "$work/$ns"; done
# Whether the hung member's own server still answers its exporter depends on which of its threads
# meets the stalled fsync first: the alerts of an unreadable database (compared above) vary from
# cluster to cluster here, whatever the clocks.
compare "member 3's disk hung" "$t" '.*' 'OVNRaftExporterClockSkew|OVNRaftDatabaseUnreadable|OVNRaftMemberNotReporting|OVNRaftExporterDown'
for ns in "${namespaces[@]}"; do "$root/scripts/raft-cluster.sh" fast-disk "$work/$ns" 3 nb; done
wait_for 120 "every alert cleared once member 3's disk is back" all_clear

leader_alerts='OVNRaft(FrequentLeadershipTransfers|FrequentElections|MultipleLeaders|LeaderDisagreement|NoLeader|MemberCampaigning)'
echo "== 3. two leadership transfers; stepped's exporter restarted meanwhile"
t=$SECONDS
since=$(date -u +%Y-%m-%dT%H:%M:%S)
transfers() { prom_value "$prom_port" "sum(ovn_raft_cluster_member:leadership_transfers:count{namespace=\"$1\"})"; }
# received NS: the transfers its cluster held since the scenario began, by its servers' own logs
# (a transfer's target logs it; an election by timeout, which a loaded machine can bring about
# in any cluster, does not).
received() {
  cat "$work/$1"/m*/nb.log 2>/dev/null | awk -v since="$since" '$0 >= since' |
    grep -c "received leadership transfer from" || true
}
counted() { # N: every cluster's rules count as many transfers as its servers logged, at least N
  local ns
  for ns in "${namespaces[@]}"; do
    [ "$(received "$ns")" -ge "$1" ] && [ "$(transfers "$ns")" = "$(received "$ns")" ] || return 1
  done
}
transfer() { "$root/scripts/raft-cluster.sh" transfer "$work/$1" nb; } # NS
for round in 1 2; do
  jobs_=()
  for ns in "${namespaces[@]}"; do
    transfer "$ns" >>"$work/cluster.log" 2>&1 &
    jobs_+=($!)
  done
  for j in "${jobs_[@]}"; do wait "$j" || fail "a transfer failed (see $work/cluster.log)"; done
  # Counted before stepped's exporter restarts: a transfer that no scrape saw before it went
  # would be missing whatever the clock.
  wait_for 60 "round $round's transfer counted in every cluster" counted "$round"
  if [ "$round" = 1 ]; then
    kill "$(cat "$work/stepped-3.pid")"
    echo "+600" >"$work/stepped.clock"
    exporter stepped 3
  fi
  sleep 15
done
sleep 15 # the rules count the last transfer
# The verdicts on leader changes. (The stopped leader's own absence may raise other alerts, and
# a transfer may leave one pending for a sample, as long as it lasts on a loaded machine: not the
# clocks' doing.)
compare "two leadership transfers" "$t" "$leader_alerts"
w=$((SECONDS - t_start + 10))
elections() { # term changes over the run, less transfers
  prom_value "$prom_port" "changes(ovn_raft_cluster:leader_term:max{namespace=\"$1\"}[${w}s]) - $(transfers "$1")"
}
# Each cluster's count is its servers' word, whatever its exporters' clocks; elections by timeout
# are term changes less those, so they are right when the transfers are.
for ns in "${namespaces[@]}"; do
  echo "  $ns: $(transfers "$ns") transfers (its servers logged $(received "$ns")), $(elections "$ns") elections"
  [ "$(received "$ns")" -ge 2 ] || fail "$ns's servers logged $(received "$ns") leadership transfers, not 2"
  [ "$(transfers "$ns")" = "$(received "$ns")" ] ||
    fail "$ns counted $(transfers "$ns") leadership transfers, its servers logged $(received "$ns")"
  [ "$(elections "$ns")" -ge 0 ] || fail "$ns counted $(elections "$ns") elections by timeout"
done
steps=$(wc -l <"$work/steps")
[ "$steps" -ge 8 ] || fail "the stepped clock stepped only $steps times"
echo "  the stepped clock stepped $steps times"
echo "PASS"
