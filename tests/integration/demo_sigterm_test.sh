#!/usr/bin/env bash
# The demo stops at once on SIGTERM to its own process (`kill PID`, a service manager, a CI
# timeout), as on Ctrl-C: every member, exporter and Prometheus it started is gone within
# seconds, not when its wait would have ended. Ports from DEMO_*_PORT (tests/support/ports.sh).
#
#   demo_sigterm_test.sh      exit 0 on success
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
export DEMO_DIR=${DEMO_DIR:-$(mktemp -d /tmp/ovn-raft-demo-term.XXXXXX)}
fail() { echo "FAIL: $*" >&2; exit 1; }
log="$DEMO_DIR.log"
bash "$root/scripts/demo.sh" >"$log" 2>&1 &
demo=$!
cleanup() {
  kill "$demo" 2>/dev/null || true
  bash "$root/scripts/demo.sh" stop >/dev/null 2>&1 || true
  rm -rf "$DEMO_DIR" "$log"
}
trap cleanup EXIT
for _ in $(seq 240); do
  grep -q "Press Ctrl-C to stop" "$log" && break
  kill -0 "$demo" 2>/dev/null || { cat "$log"; fail "the demo ended before it was running"; }
  sleep 1
done
grep -q "Press Ctrl-C to stop" "$log" || { tail -20 "$log"; fail "the demo never said it was running"; }
# What it started: the processes holding files in its directory.
# (Processes of other tests end meanwhile: grep then says it could not read some.)
started=$({ grep -ls "$DEMO_DIR" /proc/[0-9]*/cmdline || true; } | cut -d/ -f3 | { grep -vx "$demo" || true; } |
  sort -u | tr '\n' ' ')
[ -n "$started" ] || fail "no process of the demo found"
echo "running: $(wc -w <<<"$started") processes"
t0=$(date +%s.%N)
kill -TERM "$demo"
for _ in $(seq 300); do kill -0 "$demo" 2>/dev/null || break; sleep 0.1; done
kill -0 "$demo" 2>/dev/null && fail "the demo still runs 30 s after SIGTERM"
took=$(echo "$(date +%s.%N) $t0" | awk '{printf "%.1f", $1 - $2}')
grep -q "Stopping the demo" "$log" || fail "the demo did not say it was stopping"
left=""
for p in $started; do kill -0 "$p" 2>/dev/null && left+="$p "; done
[ -z "$left" ] || fail "still running after the demo stopped: $left"
echo "stopped in $took s, nothing left running"
echo "demo sigterm: 1 passed, 0 failed"
