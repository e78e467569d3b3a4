#!/usr/bin/env bash
# Builds the libFuzzer targets with clang + ASan/UBSan and runs each for SECONDS (default 60),
# starting from the real fixtures and small corpora (JSON-RPC, web config files, HTTP request
# fields). Exit non-zero on any crash.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
# FUZZ_BUILD_DIR: a build of the same configuration to reuse (scripts/test.sh shares its own).
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DOVN_RAFT_FUZZ=ON -DOVN_RAFT_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$build" cluster_status_fuzzer jsonrpc_framing_fuzzer web_config_fuzzer \
  http_request_fuzzer >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/status" "$work/jsonrpc" "$work/web_config" "$work/http_request"
for f in "$root"/tests/fixtures/*/*.txt "$root"/tests/fixtures/*/*/*.txt; do # names repeat
  d=${f#"$root"/tests/fixtures/}
  cp "$f" "$work/status/${d//\//-}"
done
cp "$root"/tests/fuzz/corpus/jsonrpc/* "$work/jsonrpc/"
cp "$root"/tests/fuzz/corpus/web_config/* "$work/web_config/"
cp "$root"/tests/fuzz/corpus/http_request/* "$work/http_request/"
# FUZZ_JOBS targets at a time (default 2): a fuzzer is one process on one core.
jobs=${FUZZ_JOBS:-2}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: FUZZ_JOBS must be a positive number, not '$jobs'" >&2; exit 2; }
fuzz_one() { # NAME CORPUS
  exec "$build/tests/fuzz/${1}_fuzzer" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$build/crash-$1-" "$work/$2" 2>"$work/$1.log"
}
declare -A name_of=()
failed=()
# Whatever ends the script early, no fuzzer outlives it (nor its corpus, removed on exit).
trap 'kill "${!name_of[@]}" 2>/dev/null || true; wait; rm -rf "$work"' EXIT
reap() { # waits for one fuzzer and reports it
  local pid="" rc=0
  wait -n -p pid || rc=$?
  [ -n "$pid" ] || { echo "fuzz: lost track of a fuzzer (wait status $rc)" >&2; exit 1; }
  if [ "$rc" -eq 0 ]; then
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/${name_of[$pid]}.log" |
      sed "s/^/fuzz: ${name_of[$pid]} /" >&2 || true
  else
    failed+=("${name_of[$pid]}")
  fi
  unset "name_of[$pid]"
}
for target in cluster_status:status jsonrpc_framing:jsonrpc web_config:web_config \
  http_request:http_request; do
  [ "${#name_of[@]}" -lt "$jobs" ] || reap
  echo "fuzz: ${target%%:*}_fuzzer for ${seconds}s" >&2
  fuzz_one "${target%%:*}" "${target##*:}" &
  name_of[$!]=${target%%:*}
done
while [ "${#name_of[@]}" -gt 0 ]; do reap; done
for name in "${failed[@]}"; do
  echo "fuzz: ${name}_fuzzer failed" >&2
  tail -50 "$work/$name.log"
done
[ "${#failed[@]}" -eq 0 ]
