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
for target in cluster_status:status jsonrpc_framing:jsonrpc web_config:web_config \
  http_request:http_request; do
  name=${target%%:*}
  echo "fuzz: ${name}_fuzzer for ${seconds}s" >&2
  "$build/tests/fuzz/${name}_fuzzer" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$build/crash-$name-" "$work/${target##*:}" 2>"$work/$name.log" ||
    { tail -50 "$work/$name.log"; exit 1; }
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/$name.log" | sed "s/^/fuzz: $name /" >&2
done
