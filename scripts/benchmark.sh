#!/usr/bin/env bash
# Measures, in one run on a real 3-member cluster: /metrics latency with the result cache off
# (--ovsdb.min-interval=0, so every scrape reads both databases), the exec baseline of the Go
# exporters, and the exporter's resident memory over SCRAPES scrapes (default 100000).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$root/scripts/lib.sh"
claim_ports
scrapes=${1:-100000}
bash "$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$root/build" ovn-raft-exporter scrape_bench >/dev/null
work=$(mktemp -d /tmp/ovn-raft-bench.XXXXXX)
cluster="$root/scripts/raft-cluster.sh"
trap '"$cluster" stop "$work/c" || true; kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
"$cluster" start "$work/c" 3 >/dev/null 2>&1
port=$(free_port 1)
start_exporter "$root/build/exporter/ovn-raft-exporter" "$port" "$work/c/m1" --ovsdb.min-interval=0 \
  2>"$work/exporter.log"
pid=$!
sleep 0.5
echo "ovsdb-server $(ovsdb-server --version | awk 'NR==1{print $NF}'), $(nproc) cores, $scrapes scrapes"
"$root/build/tests/scrape_bench" "http://127.0.0.1:$port/metrics" "$scrapes" "$pid" \
  "$work/c/m1/nb.ctl" "$work/c/m1/sb.ctl" 500
