#!/usr/bin/env bash
# The uncached scrape of this tree against another revision's, in one run, interleaved: both
# exporters (Release builds) read member 1 of one real 3-member cluster with
# --ovsdb.min-interval=0, and tests/bench/scrape_compare.cc scrapes them in turns.
#
#   scripts/scrape-compare.sh REV [ROUNDS] [SCRAPES_PER_ROUND]     (default 20 rounds of 500)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$root/scripts/lib.sh"
claim_ports
rev=${1:?usage: scrape-compare.sh REV [ROUNDS] [SCRAPES_PER_ROUND]}
rounds=${2:-20}
scrapes=${3:-500}
bash "$root/scripts/install-deps.sh"
work=$(mktemp -d /tmp/ovn-raft-scrape-compare.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  bash "$root/scripts/raft-cluster.sh" stop "$work/c" >/dev/null 2>&1 || true
  git -C "$root" worktree remove --force "$work/src" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# Both built alike: Release, the system's civetweb, no tests but the comparer.
build() { # source build-dir
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$2" "${@:3}" >/dev/null
}
git -C "$root" worktree add --detach "$work/src" "$rev" >/dev/null 2>&1
build "$work/src" "$work/build-rev" ovn-raft-exporter
build "$root" "$root/build-compare" ovn-raft-exporter scrape_compare

# Both in the caller's environment; scripts/perf-compare.sh adds memory and a second one.
bash "$root/scripts/raft-cluster.sh" start "$work/c" 3 >/dev/null 2>&1
m=$work/c/m1
ports=()
for bin in "$work/build-rev/exporter/ovn-raft-exporter" "$root/build-compare/exporter/ovn-raft-exporter"; do
  port=$(free_port 1)
  # The dotted spellings: every revision since the flags took them accepts them.
  "$bin" --web.listen-address="127.0.0.1:$port" --ovsdb.min-interval=0 \
    --ovsdb.database="OVN_Northbound=$m/nb.ctl,$m/nb.sock" \
    --ovsdb.database="OVN_Southbound=$m/sb.ctl,$m/sb.sock" \
    2>>"$work/exporter.log" &
  pids+=($!)
  ports+=("$port")
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/metrics" >/dev/null && break; sleep 0.1; done
done
echo "A: $rev ($(git -C "$root" rev-parse --short "$rev")), B: this tree ($(git -C "$root" rev-parse --short HEAD)); ovsdb-server $(ovsdb-server --version | awk 'NR==1{print $NF}'), $(nproc) cores"
"$root/build-compare/tests/scrape_compare" "http://127.0.0.1:${ports[0]}/metrics" \
  "http://127.0.0.1:${ports[1]}/metrics" "$rounds" "$scrapes"
