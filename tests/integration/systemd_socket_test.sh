#!/usr/bin/env bash
# --web.systemd-socket, for real: the exporter serves /metrics of a real cluster on the socket
# it is passed the way systemd passes one (LISTEN_FDS, LISTEN_PID, descriptor 3), by
# systemd-socket-activate when installed and by a launcher that binds, forks and execs
# (listen_fds.py); over TLS too; the same socket passed twice, served once and stopped at once
# by SIGTERM; a second exporter on the same socket after the first stopped
# answers (the port stays held); a socket that is not its own, or does not listen, is refused
# with a clear error and exit 1.
#   systemd_socket_test.sh EXPORTER_BINARY
set -euo pipefail
exporter=$1
here=$(cd "$(dirname "$0")" && pwd)
scripts=$(cd "$here/../../scripts" && pwd)
# shellcheck source=../../scripts/lib.sh
. "$scripts/lib.sh"
scratch_dir ovn-raft-sdsock
fail() { echo "FAIL: $*"; exit 1; }
passed=0
claim_ports
port=$(free_port 16)
bash "$scripts/raft-cluster.sh" start "$dir/c" 1 "$port" >/dev/null 2>&1
dbs=(--ovsdb.min-interval=0
  --ovsdb.database="OVN_Northbound=$dir/c/m1/nb.ctl,$dir/c/m1/nb.sock"
  --ovsdb.database="OVN_Southbound=$dir/c/m1/sb.ctl,$dir/c/m1/sb.sock")

# Both databases up through the socket at URL (curl options after it), within 10 s.
serves() {
  local url=$1 metrics=""
  shift
  for _ in $(seq 100); do
    metrics=$(curl -sf --max-time 2 "$@" "$url/metrics" || true)
    [ "$(grep -c '^ovn_raft_up{.*} 1$' <<<"$metrics")" = 2 ] && return 0
    sleep 0.1
  done
  fail "$url: not both databases up: $(grep ^ovn_raft_up <<<"$metrics")"
}

# The launcher: the listen address given to the exporter is a port nothing listens on, so only
# the passed socket can answer.
p=$((port + 10))
python3 "$here/listen_fds.py" --runs=2 127.0.0.1 "$p" "$exporter" --web.systemd-socket \
  --web.listen-address=127.0.0.1:1 "${dbs[@]}" >"$dir/launcher.log" 2>&1 &
pids+=($!)
serves "http://127.0.0.1:$p"
grep -q 'msg=listening .*address=127.0.0.1:'"$p"' port='"$p"' systemd_socket=on' "$dir/launcher.log" ||
  fail "no listening line for the passed socket: $(cat "$dir/launcher.log")"
grep -q '127.0.0.1:1\b' "$dir/launcher.log" && fail "--web.listen-address was used"
echo "listen_fds.py: /metrics served on the passed socket 127.0.0.1:$p, both databases up"
passed=$((passed + 1))
# SIGTERM the first exporter: the launcher starts the second on the socket it kept.
first=$(pgrep -P "${pids[-1]}" -f -- --web.systemd-socket)
kill -TERM "$first"
serves "http://127.0.0.1:$p"
[ "$(grep -c 'exited 0' "$dir/launcher.log")" = 1 ] || fail "the first exporter did not exit 0"
echo "after a restart on the same socket: served again"
passed=$((passed + 1))
kill -TERM "$(pgrep -P "${pids[-1]}" -f -- --web.systemd-socket)"

# The same socket passed twice: served once, and SIGTERM stops the exporter at once, with no
# connection after it (an accept on the second descriptor used to wait for one).
p=$((port + 14))
python3 "$here/listen_fds.py" --fd=twice 127.0.0.1 "$p" "$exporter" --web.systemd-socket \
  "${dbs[@]}" >"$dir/twice.log" 2>&1 &
pids+=($!)
serves "http://127.0.0.1:$p"
grep -q 'msg=listening .*address=127.0.0.1:'"$p"' port=' "$dir/twice.log" ||
  fail "passed twice: not one listening address: $(grep msg=listening "$dir/twice.log")"
kill -TERM "$(pgrep -P "${pids[-1]}" -f -- --web.systemd-socket)"
stopped=0
for _ in $(seq 50); do
  grep -q 'exited 0' "$dir/twice.log" && { stopped=1; break; }
  sleep 0.1
done
[ "$stopped" = 1 ] || fail "passed twice: SIGTERM did not stop the exporter within 5 s: $(cat "$dir/twice.log")"
echo "the same socket passed twice: served once, SIGTERM stops at once"
passed=$((passed + 1))

# TLS on the passed socket.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
  -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout "$dir/tls.key" \
  -out "$dir/tls.crt" 2>/dev/null
printf 'tls_server_config:\n  cert_file: tls.crt\n  key_file: tls.key\n' >"$dir/web.yml"
p=$((port + 11))
python3 "$here/listen_fds.py" 127.0.0.1 "$p" "$exporter" --web.systemd-socket \
  --web.config.file="$dir/web.yml" "${dbs[@]}" >"$dir/tls.log" 2>&1 &
pids+=($!)
serves "https://127.0.0.1:$p" --cacert "$dir/tls.crt"
echo "over TLS: /metrics served on the passed socket"
passed=$((passed + 1))
kill -TERM "$(pgrep -P "${pids[-1]}" -f -- --web.systemd-socket)"

# systemd's own tool: it holds the socket and execs the exporter on the first connection.
if command -v systemd-socket-activate >/dev/null; then
  p=$((port + 12))
  systemd-socket-activate -l "127.0.0.1:$p" "$exporter" --web.systemd-socket "${dbs[@]}" \
    >"$dir/activate.log" 2>&1 &
  pids+=($!)
  serves "http://127.0.0.1:$p"
  echo "systemd-socket-activate: /metrics served"
  passed=$((passed + 1))
  kill -TERM "${pids[-1]}"
else
  echo "systemd-socket-activate not installed (Debian: package systemd): skipped"
fi

# Refused: LISTEN_PID of another process; a socket that does not listen; no socket at all.
p=$((port + 13))
expect_refused() { # NAME WANT LAUNCHER_ARGS...
  local name=$1 want=$2 rc=0
  shift 2
  "$@" >"$dir/$name.log" 2>&1 || rc=$?
  [ "$rc" = 1 ] || fail "$name: exit $rc, not 1: $(cat "$dir/$name.log")"
  grep -q "cannot serve the sockets systemd passes.*$want" "$dir/$name.log" ||
    fail "$name: the log lacks \"$want\": $(cat "$dir/$name.log")"
  echo "$name: refused, exit 1: $(grep -o "error=.*" "$dir/$name.log" | head -1)"
}
expect_refused wrong_pid "not this process" \
  python3 "$here/listen_fds.py" --pid=wrong 127.0.0.1 "$p" "$exporter" --web.systemd-socket
expect_refused not_listening "not a listening stream socket" \
  python3 "$here/listen_fds.py" --fd=idle 127.0.0.1 "$p" "$exporter" --web.systemd-socket
expect_refused no_socket "LISTEN_PID and LISTEN_FDS are not set" \
  env -u LISTEN_FDS -u LISTEN_PID "$exporter" --web.systemd-socket
passed=$((passed + 1))
echo "systemd socket: $passed passed, 0 failed"
