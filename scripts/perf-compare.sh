#!/usr/bin/env bash
# This tree's speed and memory against other revisions', side by side in one run, each figure
# in two environments: "plain" (started by hand, or by any packaging) and "tcache-off" (glibc's
# per-thread caches off, as the image and the unit started it until they stopped needing to).
#   - uncached scrape, interleaved on one real cluster (tests/bench/scrape_compare.cc): B / A
#     with a connection per scrape and with one kept alive, A being each revision, B this tree
#   - RSS after SCRAPES uncached scrapes, one after another (tests/bench/scrape_bench.cc)
#   - RSS after 300 concurrent scrapers and after a TLS handshake flood
#     (scripts/abuse-benchmark.sh workers tls-handshakes)
# Every binary is a Release build with civetweb from source (TLS), its own revision's.
# --scrape-only: the uncached scrape alone, plain (a few minutes instead of most of an hour).
#
#   [SCRAPES=100000] [ROUNDS=10] [PER_ROUND=400] scripts/perf-compare.sh [--scrape-only] REV...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$root/scripts/lib.sh"
claim_ports
scrape_only=0
[ "${1:-}" != --scrape-only ] || { scrape_only=1; shift; }
[ $# -ge 1 ] || { echo "usage: perf-compare.sh [--scrape-only] REV..." >&2; exit 2; }
scrapes=${SCRAPES:-100000}
rounds=${ROUNDS:-10}
per_round=${PER_ROUND:-400}
bash "$root/scripts/install-deps.sh"
work=$(mktemp -d /tmp/ovn-raft-perf-compare.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  bash "$root/scripts/raft-cluster.sh" stop "$work/c" >/dev/null 2>&1 || true
  for d in "$work"/src-*; do git -C "$root" worktree remove --force "$d" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT

export CCACHE_DIR=${CCACHE_DIR:-/var/cache/ovn-raft-exporter/ccache} CCACHE_NOHASHDIR=true
build() { # source build-dir targets...
  local cw
  cw=/var/cache/ovn-raft-exporter/civetweb/build-$(sha256sum "$1/scripts/build-civetweb.sh" | cut -c1-12)
  CCACHE_BASEDIR=$1 cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache \
    -DOVN_RAFT_CIVETWEB=source -DOVN_RAFT_CIVETWEB_PREFIX="$cw" >/dev/null
  CCACHE_BASEDIR=$1 ninja -C "$2" "${@:3}" >/dev/null
}
names=() bins=()
for rev in "$@"; do
  short=$(git -C "$root" rev-parse --short "$rev")
  git -C "$root" worktree add --detach "$work/src-$short" "$rev" >/dev/null 2>&1
  build "$work/src-$short" "$work/build-$short" ovn-raft-exporter
  names+=("$short") bins+=("$work/build-$short/exporter/ovn-raft-exporter")
done
build "$root" "$root/build-perf" ovn-raft-exporter scrape_compare scrape_bench
names+=("this tree ($(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD || echo +))")
bins+=("$root/build-perf/exporter/ovn-raft-exporter")
tools=$root/build-perf/tests

bash "$root/scripts/raft-cluster.sh" start "$work/c" 3 >/dev/null 2>&1
m=$work/c/m1
start() { # binary: starts it on the cluster's member 1, every scrape uncached; sets $port $pid
  port=$(free_port 1)
  "$1" --web.listen-address="127.0.0.1:$port" --ovsdb.min-interval=0 \
    --ovsdb.database="OVN_Northbound=$m/nb.ctl,$m/nb.sock" \
    --ovsdb.database="OVN_Southbound=$m/sb.ctl,$m/sb.sock" 2>>"$work/exporter.log" &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/metrics" >/dev/null && return; sleep 0.1; done
  echo "$1 did not serve within 5 s:" >&2
  tail -5 "$work/exporter.log" >&2
  exit 1
}
stop_all() {
  kill "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
  pids=()
}
mib() { awk '{printf "%.1f", $1 / 1024}'; }

echo "ovsdb-server $(ovsdb-server --version | awk 'NR==1{print $NF}'), $(nproc) cores, $(date -u +%F)"
envs=(plain tcache-off)
[ "$scrape_only" = 0 ] || envs=(plain)
for env in "${envs[@]}"; do
  if [ "$env" = plain ]; then unset GLIBC_TUNABLES; else export GLIBC_TUNABLES=glibc.malloc.tcache_count=0; fi
  echo
  echo "## $env"
  last=$((${#bins[@]} - 1))
  for i in $(seq 0 $((last - 1))); do
    start "${bins[$i]}"; a=$port
    start "${bins[$last]}"; b=$port
    out=$("$tools/scrape_compare" "http://127.0.0.1:$a/metrics" "http://127.0.0.1:$b/metrics" \
      "$rounds" "$per_round")
    # Each round's medians too when the scrape is all that is asked.
    [ "$scrape_only" = 0 ] || sed '$d' <<<"$out"
    echo "uncached scrape, this tree against ${names[$i]}: $(tail -1 <<<"$out")"
    stop_all
  done
  [ "$scrape_only" = 0 ] || continue
  for i in $(seq 0 "$last"); do
    start "${bins[$i]}"
    at_start=$(awk '/^VmRSS/{print $2}' "/proc/$pid/status" | mib)
    after=$("$tools/scrape_bench" "http://127.0.0.1:$port/metrics" "$scrapes" "$pid" |
      awk -v n="$scrapes" '$1 == "after" && $2 == n {print $6}' | mib)
    stop_all
    # A missed target is a figure too (marked): the benchmark's exit status is not the point here.
    attacks=$({ BUILD_DIR=$root/build-perf EXPORTER_BIN=${bins[$i]} \
      bash "$root/scripts/abuse-benchmark.sh" workers tls-handshakes 2>&1 || true; } |
      awk -F'RSS ' '/^(ok|MISSED)/{split($2, r, " "); printf "%s%s ", r[3], ($0 ~ /^MISSED/ ? " (missed)" : "")}')
    echo "${names[$i]}: RSS ${at_start} MiB serving, ${after} MiB after $scrapes scrapes; after 300 scrapers, after the TLS handshake flood: ${attacks}MiB"
  done
done
