#!/usr/bin/env bash
# The main job on an embedded default: installs what is missing, builds, starts a real 3-member
# OVN NB+SB Raft cluster on 127.0.0.1-3 with one exporter beside each member and a Prometheus
# with this repo's rules, prints what they see, and keeps everything running until Ctrl-C.
#
#   scripts/demo.sh                  start, summarise, wait for Ctrl-C (then clean up)
#   scripts/demo.sh --once           start, summarise, stop (for tests and CI)
#   scripts/demo.sh summary          summarise the running demo again
#   scripts/demo.sh break SCENARIO   from another terminal: stale-member | member-down |
#                                    leader-down | exporter-down | cut-off | split | disk-full
#   scripts/demo.sh heal             undo every break: back to a healthy 3-member cluster
#   scripts/demo.sh stop             stop a demo left running
#   scripts/demo.sh fleet            from another terminal, beside a running demo: the fleet
#                                    pipeline on VictoriaMetrics (scripts/fleet-pipeline.sh:
#                                    two vmagents sharing the exporters, victoria-metrics,
#                                    vmalert, Alertmanager); `fleet summary`, `fleet stop`
#
# Environment: DEMO_DIR (default /tmp/ovn-raft-demo), DEMO_RAFT_PORT (16641: NB, +1: SB),
# DEMO_EXPORTER_PORT (10476, +1, +2), DEMO_PROMETHEUS_PORT (19090), BUILD_DIR (build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$root/scripts/lib.sh"
dir=${DEMO_DIR:-/tmp/ovn-raft-demo}
raft_port=${DEMO_RAFT_PORT:-16641}
exporter_port=${DEMO_EXPORTER_PORT:-10476}
prometheus_port=${DEMO_PROMETHEUS_PORT:-19090}
build=${BUILD_DIR:-$root/build}
bin="$build/exporter/ovn-raft-exporter"
cluster() { "$root/scripts/raft-cluster.sh" "$1" "$dir/cluster" "${@:2}"; }
say() { printf '%s\n' "$*" >&2; }

exporter_url() { echo "http://127.0.0.1:$((exporter_port + $1 - 1))"; }

start_member_exporter() { # member
  start_exporter "$bin" "$((exporter_port + $1 - 1))" "$dir/cluster/m$1" \
    --cluster.expected-members=3 2>>"$dir/exporter-$1.log"
  echo $! >"$dir/exporter-$1.pid"
}

stop_pidfile() {
  [ -f "$1" ] || return 0
  kill "$(cat "$1")" 2>/dev/null || true
  rm -f "$1"
}

stop_all() {
  for f in "$dir"/exporter-*.pid; do [ -e "$f" ] && stop_pidfile "$f"; done
  "$root/scripts/fleet-pipeline.sh" stop "$dir/fleet" 2>/dev/null || true
  "$root/scripts/prometheus-demo.sh" stop "$dir/prometheus" 2>/dev/null || true
  cluster stop 2>/dev/null || true
}

start_prometheus() {
  "$root/scripts/prometheus-demo.sh" start "$dir/prometheus" "$prometheus_port" \
    "$(exporter_url 1)" "$(exporter_url 2)" "$(exporter_url 3)"
}

summary() {
  say ""
  say "== What each member's exporter sees (ovn-raft-report)"
  "$build/report/ovn-raft-report" --cluster.expected-members=3 "$(exporter_url 1)" "$(exporter_url 2)" "$(exporter_url 3)" || true
  if [ -f "$dir/prometheus/prometheus.pid" ]; then
    say ""
    say "== The cluster's health as the recording rules compute it (Prometheus)"
    "$root/scripts/prometheus-demo.sh" summary "$prometheus_port" || true
  fi
}

urls() {
  say ""
  say "Exporters:  $(exporter_url 1)/metrics  $(exporter_url 2)/metrics  $(exporter_url 3)/metrics"
  say "Status:     $(exporter_url 1)/status (parsed cluster/status as JSON)"
  say "Prometheus: http://127.0.0.1:$prometheus_port/alerts (rules evaluated every 2 s)"
  say "Break it:   scripts/demo.sh break stale-member|member-down|leader-down|exporter-down|cut-off|split|disk-full"
  say "Heal it:    scripts/demo.sh heal     Summary again: scripts/demo.sh summary"
}

start() {
  bash "$root/scripts/install-deps.sh"
  cmake -S "$root" -B "$build" -G Ninja >/dev/null
  ninja -C "$build" ovn-raft-exporter ovn-raft-report >/dev/null
  stop_all
  rm -rf "$dir"
  mkdir -p "$dir"
  say "Starting a 3-member OVN NB+SB Raft cluster on 127.0.0.1-3 (ports $raft_port, $((raft_port + 1)))..."
  cluster start 3 "$raft_port" >"$dir/cluster.log" 2>&1
  for m in 1 2 3; do start_member_exporter "$m"; done
  start_prometheus
  # Wait for the first scrapes and rule evaluations.
  for _ in $(seq 60); do
    curl -s "http://127.0.0.1:$prometheus_port/api/v1/query?query=ovn_raft_cluster:reporters:count" |
      grep -q '"value"' && break
    sleep 0.5
  done
  summary
  urls
}

break_it() {
  case "${1:-}" in
    stale-member)
      say "Restarting member 3 with a fresh database: it rejoins under a new ID, the old ID stays."
      cluster restart-fresh 3 ;;
    member-down) say "Killing member 2's ovsdb-servers."; cluster kill 2 ;;
    leader-down)
      local l
      l=$(cluster leader nb)
      say "Killing the NB leader, member $l."
      cluster kill "$l" nb ;;
    exporter-down) say "Stopping member 2's exporter; its database stays up."; stop_pidfile "$dir/exporter-2.pid" ;;
    cut-off)
      say "Firewalling member 3 off from its peers (iptables); it keeps running and campaigns alone."
      cluster cut 3 ;;
    split)
      say "Re-creating member 3 as a new single-member cluster (a cluster ID split)."
      cluster split 3 ;;
    disk-full)
      say "Moving member 3's NB database to a 128 KiB disk, making it the leader, writing until the disk is full."
      cluster disk 3 nb 128k
      cluster wait
      cluster lead 3 nb
      cluster fill 3 nb
      say "Member 3's NB is in failure mode (Status: failed). To recover as an operator would:"
      say "  scripts/raft-cluster.sh disk $dir/cluster 3 nb 4m && scripts/raft-cluster.sh restart $dir/cluster 3" ;;
    *) say "break what? stale-member | member-down | leader-down | exporter-down | cut-off | split | disk-full"; exit 2 ;;
  esac
  say "Alerts count their condition for a while before firing; watch: scripts/demo.sh summary"
}

heal() {
  say "Rebuilding a healthy cluster..."
  for f in "$dir"/exporter-*.pid; do [ -e "$f" ] && stop_pidfile "$f"; done
  cluster stop
  rm -rf "$dir/cluster"
  cluster start 3 "$raft_port" >"$dir/cluster.log" 2>&1
  for m in 1 2 3; do start_member_exporter "$m"; done
  sleep 1
  summary
}

# The same pipeline the fleet test runs, on the demo's exporters (pods ovn-central-0..2 of
# namespace demo), its for: durations divided by 30 as the alerting tests do.
fleet() {
  case "${1:-start}" in
    start)
      [ -f "$dir/exporter-1.pid" ] || { say "no demo running: start scripts/demo.sh first"; exit 1; }
      "$root/scripts/fleet-pipeline.sh" stop "$dir/fleet" 2>/dev/null || true
      OVN_RAFT_FOR_SPEEDUP=${OVN_RAFT_FOR_SPEEDUP:-30} "$root/scripts/fleet-pipeline.sh" start "$dir/fleet" \
        "demo/0=127.0.0.1:$exporter_port" "demo/1=127.0.0.1:$((exporter_port + 1))" \
        "demo/2=127.0.0.1:$((exporter_port + 2))"
      # shellcheck disable=SC1091
      . "$dir/fleet/env"
      say "victoria-metrics: http://127.0.0.1:$VM_PORT/vmui   vmalert: http://127.0.0.1:$VMALERT_PORT"
      say "Alertmanager:     http://127.0.0.1:$AM_PORT   notifications: $dir/fleet/notifications.jsonl"
      say "Verdicts come about ${ALERTS_DELAY}s after the scrapes (docs/fleet.md); then: scripts/demo.sh fleet summary" ;;
    summary) "$root/scripts/fleet-pipeline.sh" summary "$dir/fleet" ;;
    stop) "$root/scripts/fleet-pipeline.sh" stop "$dir/fleet" ;;
    *) say "fleet what? start | summary | stop"; exit 2 ;;
  esac
}

case "${1:-}" in
  "")
    start
    trap 'say ""; say "Stopping the demo."; kill "${nap:-}" 2>/dev/null; stop_all; exit 0' INT TERM
    say ""
    say "Running. Press Ctrl-C to stop."
    # bash runs a trap only once its foreground command ends: a `kill PID` (not the whole
    # group, as Ctrl-C) would wait out a foreground sleep. `wait` returns to the trap at once.
    while :; do
      sleep 3600 &
      nap=$!
      wait "$nap"
    done ;;
  --once) start; stop_all ;;
  summary) summary ;;
  break) break_it "${2:-}" ;;
  heal) heal ;;
  stop) stop_all ;;
  fleet) fleet "${2:-start}" ;;
  *) say "usage: scripts/demo.sh [--once|summary|break SCENARIO|heal|stop|fleet [summary|stop]]"; exit 2 ;;
esac
