#!/usr/bin/env bash
# The sockets' owner, for real: ovsdb-server runs as 65534 (nobody) with its sockets
# srwxr-x--- 65534:65534, as Kube-OVN v1.13+ runs it. The exporter run the way the rendered
# Kube-OVN pod runs it (uid and gid 65534, no capabilities) reads both databases; run as root
# without capabilities it is refused, and its log and /status name the socket's owner, its own
# uid and capabilities, and the setting to change where it runs: the securityContext in a
# container (KUBERNETES_SERVICE_HOST set), the unit's User= under systemd (INVOCATION_ID set,
# as systemd sets it for a service).
#   socket_owner_test.sh EXPORTER_BINARY
set -euo pipefail
exporter=$1
scripts=$(cd "$(dirname "$0")/../../scripts" && pwd)
# shellcheck source=../../scripts/lib.sh
. "$scripts/lib.sh"
scratch_dir ovn-raft-owner
chmod 755 "$dir"
# A copy nobody can run wherever the checkout is (a clone in a 0700 directory, a home).
cp "$exporter" "$dir/ovn-raft-exporter"
exporter=$dir/ovn-raft-exporter
fail() { echo "FAIL: $*"; exit 1; }
claim_ports
port=$(free_port 12)
OVN_RAFT_CLUSTER_UID=65534 bash "$scripts/raft-cluster.sh" start "$dir/c" 1 "$port" >/dev/null 2>&1
for db in nb sb; do
  perms=$(stat -c '%A %u:%g' "$dir/c/m1/$db.ctl")
  echo "$db.ctl: $perms"
  [ "$perms" = "srwxr-x--- 65534:65534" ] || fail "expected srwxr-x--- 65534:65534, got $perms"
done

# No capability in any set, as `capabilities: {drop: [ALL]}` leaves a container.
nocaps=(setpriv --inh-caps=-all --bounding-set=-all)
# Where it runs is told only by the variables each run sets.
where=(env -u INVOCATION_ID -u JOURNAL_STREAM -u KUBERNETES_SERVICE_HOST)
run() { # NAME PORT SETPRIV_ARGS...: starts the exporter, waits until it answers
  local name=$1 p=$2
  shift 2
  "${nocaps[@]}" "$@" "${where[@]}" "$exporter" --web.listen-address="127.0.0.1:$p" --ovsdb.min-interval=0 \
    --ovsdb.database="OVN_Northbound=$dir/c/m1/nb.ctl,$dir/c/m1/nb.sock" \
    --ovsdb.database="OVN_Southbound=$dir/c/m1/sb.ctl,$dir/c/m1/sb.sock" >"$dir/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$p/healthz" >/dev/null && return 0; sleep 0.1; done
  fail "$name did not start: $(cat "$dir/$name.log")"
}

run nobody $((port + 10)) --reuid=65534 --regid=65534 --clear-groups
metrics=$(curl -s "http://127.0.0.1:$((port + 10))/metrics")
echo "as 65534:65534 without capabilities: $(grep -c '^ovn_raft_up{.*} 1$' <<<"$metrics") of 2 databases up"
[ "$(grep -c '^ovn_raft_up{.*} 1$' <<<"$metrics")" = 2 ] || fail "not both databases up: $(grep ^ovn_raft_up <<<"$metrics")"

where+=(KUBERNETES_SERVICE_HOST=10.96.0.1)
run root $((port + 11)) --reuid=0 --regid=0 --clear-groups
metrics=$(curl -s "http://127.0.0.1:$((port + 11))/metrics")
grep -q '^ovn_raft_up{db="OVN_Northbound"} 0$' <<<"$metrics" || fail "root without capabilities read the socket"
grep -q '^ovn_raft_exporter_errors_total{db="OVN_Northbound",reason="permission_denied"} [1-9]' <<<"$metrics" ||
  fail "no permission_denied error counted"
status=$(curl -s "http://127.0.0.1:$((port + 11))/status" | jq -r '.databases[0].error.message')
echo "as root without capabilities, /status says: $status"
sleep 0.5
log=$(grep -m1 permission_denied "$dir/root.log" || true)
echo "and the log: $log"
for want in "srwxr-x--- 65534:65534" "runs as 0:0" "without capabilities" "runAsUser: 65534"; do
  [[ "$status" == *"$want"* ]] || fail "/status lacks \"$want\""
  [[ "$log" == *"$want"* ]] || fail "the log lacks \"$want\""
done

# Under systemd: the same refusal names the unit's User=, by the owner's name, and a drop-in.
owner=$(getent passwd 65534 | cut -d: -f1)
group=$(getent group 65534 | cut -d: -f1)
where=(env -u JOURNAL_STREAM -u KUBERNETES_SERVICE_HOST INVOCATION_ID=0123456789abcdef0123456789abcdef)
run systemd $((port + 12)) --reuid=0 --regid=0 --clear-groups
status=$(curl -s "http://127.0.0.1:$((port + 12))/status" | jq -r '.databases[0].error.message')
echo "under systemd, as root without capabilities, /status says: $status"
sleep 0.5
log=$(grep -m1 permission_denied "$dir/systemd.log" || true)
for want in "srwxr-x--- 65534:65534" "set User=${owner:-65534} and Group=${group:-65534}" \
  "systemctl edit ovn-raft-exporter"; do
  [[ "$status" == *"$want"* ]] || fail "/status under systemd lacks \"$want\""
  [[ "$log" == *"$want"* ]] || fail "the log under systemd lacks \"$want\""
done
[[ "$status" != *securityContext* ]] || fail "/status under systemd names the securityContext"
echo "socket owner: 3 passed, 0 failed"
