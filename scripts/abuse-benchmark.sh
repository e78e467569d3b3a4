#!/usr/bin/env bash
# Abuse benchmark: every attack of docs/dev/abuse.md (slow and busy-looking
# clients, floods from one or many sources, password guessing, hostile replies, a bad web
# config, SIGTERM under load) against the real binary and a real cluster, on loopback only,
# every load bounded in connections and time (tests/bench/abuse_bench.py). Prints per attack
# what a legitimate scraper saw and the exporter's memory and descriptors before and after,
# then the table of docs/dev/abuse.md; exits 1 when a target is missed.
#
#   scripts/abuse-benchmark.sh [ATTACK...]     [BUILD_DIR=build] [EXPORTER_BIN=...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bash "$root/scripts/install-deps.sh"
[ -x "$build/exporter/ovn-raft-exporter" ] || {
  cmake -S "$root" -B "$build" -G Ninja >/dev/null
  ninja -C "$build" ovn-raft-exporter >/dev/null
}
bin=${EXPORTER_BIN:-$build/exporter/ovn-raft-exporter}
ulimit -n 8192
# shellcheck source=lib.sh
. "$root/scripts/lib.sh"
claim_ports # the cluster and every exporter of the run take ports of one block
work=$(mktemp -d)
cleanup() {
  bash "$root/scripts/raft-cluster.sh" stop "$work/cluster" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
bash "$root/scripts/raft-cluster.sh" start "$work/cluster" 3 >/dev/null 2>&1
m=$work/cluster/m1
/usr/bin/python3 -W ignore "$root/tests/bench/abuse_bench.py" "$bin" "$m/nb.ctl,$m/nb.sock" \
  "$m/sb.ctl,$m/sb.sock" "$root/tests/bench/fake_ovsdb.py" \
  "$root/tests/fixtures/ovs-3.1.0/leader.txt" "$work" "$@"
