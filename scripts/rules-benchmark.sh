#!/usr/bin/env bash
# The recording rules at fleet scale (tests/bench/rules_scale_bench.py): takes the /metrics of
# the three exporters of the demo's real cluster, makes N clusters of them and measures what the
# shipped rules cost a real Prometheus, and whether they still name exactly the injected faults.
#
#   scripts/rules-benchmark.sh [--against REV] [--rounds R] [--top N] [--paired] [--interval S]
#                              [--engines prometheus-2.42,prometheus-3.5,vmalert] [CLUSTERS...]
#                                                               (default: 10 100 300 1000)
#
# --against REV also runs the rules of git revision REV on the same targets and prints the
# ratio; --rounds R lets the rule sets take turns R times (default 1); --top N lists the N
# costliest rules of each set (default 12); --paired runs both rule sets side by side in one
# Prometheus (each under its own recorded names, one group per interval, one set after the
# other, the order reversed half way), so that both see the same machine; --interval S
# evaluates the rules every S seconds (default 15; more, e.g. 60, for --paired at the largest
# counts when both sets' work does not fit in 15 s); --engines measures each rule set on each
# of the rulers named, in turn on the same targets (default: the system's prometheus alone):
# prometheus-2.42 (the system's), prometheus-3.5, vmalert (with a single-node VictoriaMetrics
# that scrapes; --paired applies to the Prometheus engines). The releases come from
# scripts/monitoring-releases.sh, or PROMETHEUS_3_5 (a prometheus binary) and VM_BIN (a
# directory with victoria-metrics and vmalert) when set. Takes minutes per engine, rule set,
# round and cluster count.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
against=""
rounds=1
top=12
paired=()
interval=15
engines=""
while [ $# -gt 0 ]; do
  case $1 in
    --against) against=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --paired) paired=(--paired); shift ;;
    --interval) interval=$2; shift 2 ;;
    --engines) engines=$2; shift 2 ;;
    *) break ;;
  esac
done
release_dir() { # NAME: the directory of a pinned monitoring release's programs
  bash "$root/scripts/monitoring-releases.sh" bin "$1"
}
engine_args=()
IFS=, read -ra names <<<"$engines"
for e in "${names[@]}"; do
  case $e in
    prometheus-2.42) engine_args+=("$e=/usr/bin/prometheus") ;;
    prometheus-3.5) engine_args+=("$e=${PROMETHEUS_3_5:-$(release_dir prometheus-3.5)/prometheus}") ;;
    vmalert) engine_args+=("$e=${VM_BIN:-$(release_dir victoriametrics)}") ;;
    *) echo "rules-benchmark: no engine $e (prometheus-2.42, prometheus-3.5, vmalert)" >&2; exit 2 ;;
  esac
done
[ ${#engine_args[@]} -eq 0 ] || engine_args=(--engines "${engine_args[@]}")
# shellcheck source=lib.sh
. "$root/scripts/lib.sh"
work=$(mktemp -d /tmp/ovn-raft-rules-bench.XXXXXX)
# Ports from a block of our own (scripts/lib.sh), so that two runs and the tests can coexist.
claim_ports
DEMO_RAFT_PORT=$(free_port 2)
DEMO_EXPORTER_PORT=$(free_port 3)
DEMO_PROMETHEUS_PORT=$(free_port)
export DEMO_DIR=$work/demo DEMO_RAFT_PORT DEMO_EXPORTER_PORT DEMO_PROMETHEUS_PORT
demo_pid=""
cleanup() {
  [ -z "$demo_pid" ] || kill "$demo_pid" 2>/dev/null || true
  bash "$root/scripts/demo.sh" stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

bash "$root/scripts/demo.sh" >"$work/demo.log" 2>&1 &
demo_pid=$!
ready() { # every exporter sees both databases with a leader and three members
  local k
  for k in 1 2 3; do
    curl -sf "http://127.0.0.1:$((DEMO_EXPORTER_PORT + k - 1))/metrics" >"$work/m$k.prom" || return 1
    [ "$(grep -cE '^ovn_raft_has_leader\{.*\} 1$' "$work/m$k.prom")" = 2 ] || return 1
    [ "$(grep -cE '^ovn_raft_members\{.*\} 3$' "$work/m$k.prom")" = 2 ] || return 1
  done
}
for _ in $(seq 240); do ready && break; sleep 0.5; done
ready || { tail -20 "$work/demo.log"; echo "rules-benchmark: the demo's cluster did not come up" >&2; exit 1; }
sleep 3  # a second scrape: every peer connected, every member heard from
ready
kill "$demo_pid" 2>/dev/null || true
wait "$demo_pid" 2>/dev/null || true
demo_pid=""

# The rules as they are now: each engine and cluster count reads this copy, whatever the tree.
cp "$root/alerts/ovn-raft-rules.yaml" "$work/shipped-rules.yaml"
cp "$root/alerts/ovn-raft-alerts.yaml" "$work/shipped-alerts.yaml"
rules=("shipped=$work/shipped-rules.yaml,$work/shipped-alerts.yaml")
if [ -n "$against" ]; then
  git -C "$root" show "$against:alerts/ovn-raft-rules.yaml" >"$work/against-rules.yaml"
  git -C "$root" show "$against:alerts/ovn-raft-alerts.yaml" >"$work/against-alerts.yaml"
  rules=("$against=$work/against-rules.yaml,$work/against-alerts.yaml" "${rules[@]}")
fi
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(10 100 300 1000)
/usr/bin/python3 "$root/tests/bench/rules_scale_bench.py" "$work" --clusters "${counts[@]}" \
  --rules "${rules[@]}" --rounds "$rounds" --top "$top" "${paired[@]}" --interval "$interval" \
  "${engine_args[@]}"
