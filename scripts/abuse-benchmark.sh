#!/usr/bin/env bash
# Abuse benchmark: slow clients, password floods and hostile replies against the real binary,
# on loopback only, every load bounded in connections and time (tests/bench/abuse_bench.py).
# Prints the figures the README's "Under abuse" table records; exits 1 when one is missed.
#
#   scripts/abuse-benchmark.sh            [BUILD_DIR=build]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bash "$root/scripts/install-deps.sh"
[ -x "$build/exporter/ovn-raft-exporter" ] || {
  cmake -S "$root" -B "$build" -G Ninja >/dev/null
  ninja -C "$build" ovn-raft-exporter >/dev/null
}
bin=${EXPORTER_BIN:-$build/exporter/ovn-raft-exporter}
bench=(/usr/bin/python3 "$root/tests/bench/abuse_bench.py")
ulimit -n 8192
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  bash "$root/scripts/raft-cluster.sh" stop "$work/cluster" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
exporter() { # PORT ARGS... -> pid
  "$bin" --web.listen-address="127.0.0.1:$1" "${@:2}" >>"$work/exporter.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$1/healthz" >/dev/null && break; sleep 0.1; done
  echo "${pids[-1]}"
}
status=0

bash "$root/scripts/raft-cluster.sh" start "$work/cluster" 3 >/dev/null 2>&1
dbs=()
for db in nb sb; do
  name=$([ $db = nb ] && echo OVN_Northbound || echo OVN_Southbound)
  dbs+=("--ovsdb.database=$name=$work/cluster/m1/$db.ctl,$work/cluster/m1/$db.sock")
done

p=$(port)
pid=$(exporter "$p" "${dbs[@]}")
for n in 100 1000; do "${bench[@]}" slowloris "http://127.0.0.1:$p/metrics" "$pid" "$n" || status=1; done

hash=$(/usr/bin/python3 -c 'import crypt; print(crypt.crypt("secret", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024)))' 2>/dev/null)
printf 'basic_auth_users:\n  prom: %s\n' "$hash" >"$work/web.yml"
p=$(port)
pid=$(exporter "$p" "${dbs[@]}" --web.config.file="$work/web.yml")
"${bench[@]}" password-flood "http://127.0.0.1:$p/metrics" "$pid" prom:secret 50 || status=1

for mode in nested big members; do
  /usr/bin/python3 "$root/tests/bench/fake_ovsdb.py" "$work/$mode.ctl" "$mode" \
    "$root/tests/fixtures/ovs-3.1.0/leader.txt" >>"$work/fake.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do [ -S "$work/$mode.ctl" ] && break; sleep 0.1; done
  p=$(port)
  pid=$(exporter "$p" --ovsdb.database="OVN_Northbound=$work/$mode.ctl" --ovsdb.min-interval=0)
  "${bench[@]}" hostile "http://127.0.0.1:$p/metrics" "$pid" "$mode" || status=1
done
exit $status
