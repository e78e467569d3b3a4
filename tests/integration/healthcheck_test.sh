#!/usr/bin/env bash
# The container HEALTHCHECK (`ovn-raft-exporter healthcheck`, no URL) asks the address the
# serving exporter was given, by flag or by variable, read from its /proc entries: the
# exporter runs as PID 1 of its own PID namespace, as in a container (unshare), or beside a
# shell there; HTTPS when its web config turns TLS on. Once the exporter is gone, the check
# fails.
#   healthcheck_test.sh EXPORTER_BINARY
set -euo pipefail
exporter=$(realpath "$1")
scripts=$(cd "$(dirname "$0")/../../scripts" && pwd)
dir=$(mktemp -d /tmp/ovn-raft-health.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
passed=0
if ! unshare --pid --fork --mount-proc true 2>/dev/null; then
  echo "healthcheck: 0 passed, 0 failed (skipped: unshare --pid needs root or CAP_SYS_ADMIN)"
  exit 0
fi
# shellcheck source=../../scripts/lib.sh
. "$scripts/lib.sh"
claim_ports
port=$(free_port 4)
# The exporter reads a database nobody serves: liveness does not need one.
db=--ovsdb.database=OVN_Northbound=$dir/none.ctl

# As PID 1 of a new PID namespace; the check runs inside it, without the exporter's variables.
in_container() { # NAME ARGS...: starts the exporter as PID 1; sets ns_pid (its host pid)
  local name=$1
  shift
  unshare --pid --fork --kill-child --mount-proc "$@" >"$dir/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 50); do
    ns_pid=$(pgrep -P "${pids[-1]}" || true)
    [ -n "$ns_pid" ] && grep -q msg=listening "$dir/$name.log" && return 0
    sleep 0.1
  done
  fail "$name did not start: $(cat "$dir/$name.log")"
}
check() { # WANT_STATUS NAME: the healthcheck, no URL, inside the namespace of ns_pid
  local rc=0
  nsenter -t "$ns_pid" -p -m env -u OVN_RAFT_EXPORTER_WEB_LISTEN_ADDRESS \
    "$exporter" healthcheck >"$dir/check.out" 2>&1 || rc=$?
  [ "$rc" = "$1" ] || fail "$2: healthcheck exited $rc, not $1: $(cat "$dir/check.out")"
  echo "$2: healthcheck exits $rc $(head -c 200 "$dir/check.out")"
  passed=$((passed + 1))
}

p=$((port + 1))
in_container flag "$exporter" --web.listen-address="127.0.0.1:$p" "$db"
check 0 "PID 1 given --web.listen-address=127.0.0.1:$p"
# The default address is not served: the check did not pass by asking it.
rc=0
nsenter -t "$ns_pid" -p -m "$exporter" healthcheck http://127.0.0.1:10476/healthz >/dev/null 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "the default address answered ($rc): the test proves nothing"
stop() { # the exporter of the last in_container, and its namespace with it
  kill -TERM "$ns_pid"
  wait "${pids[-1]}" 2>/dev/null || true
}
stop

p=$((port + 2))
in_container variable env OVN_RAFT_EXPORTER_WEB_LISTEN_ADDRESS="127.0.0.1:$p" \
  "$exporter" "$db"
check 0 "PID 1 given OVN_RAFT_EXPORTER_WEB_LISTEN_ADDRESS=127.0.0.1:$p"
stop

# TLS: the check connects to the HTTPS port.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
  -subj /CN=127.0.0.1 -keyout "$dir/tls.key" -out "$dir/tls.crt" 2>/dev/null
printf 'tls_server_config:\n  cert_file: tls.crt\n  key_file: tls.key\n' >"$dir/web.yml"
p=$((port + 3))
# Beside a shell that is PID 1 (an init other than the exporter).
# The web config is given relative to the exporter's directory; the check runs elsewhere.
unshare --pid --fork --kill-child --mount-proc bash -c "
  (cd $dir && exec \"$exporter\" --web.listen-address=127.0.0.1:$p --web.config.file=web.yml $db >$dir/tls.log 2>&1) &
  cd /
  for _ in \$(seq 50); do grep -q msg=listening $dir/tls.log && break; sleep 0.1; done
  \"$exporter\" healthcheck; echo \"serving: \$?\"
  kill -TERM %1; wait
  \"$exporter\" healthcheck; echo \"stopped: \$?\"" >"$dir/shell.out" 2>&1
cat "$dir/shell.out"
grep -q '^serving: 0$' "$dir/shell.out" || fail "TLS beside a shell: not healthy while serving"
grep -q '^stopped: 1$' "$dir/shell.out" || fail "TLS beside a shell: healthy once stopped"
passed=$((passed + 1))
echo "healthcheck: $passed passed, 0 failed"
