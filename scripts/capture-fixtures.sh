#!/usr/bin/env bash
# Captures real `cluster/status` outputs from the installed ovsdb-server in every state we can
# produce on loopback, into tests/fixtures/ovs-<version>/. The unit tests parse these files;
# re-run this script to refresh them for a new OVS version. Takes about a minute.
# `capture-fixtures.sh server` captures only what the server says of itself (memory/show, the
# storage status) and a leader failed on a full disk (needs root: it mounts a tmpfs).
set -euo pipefail
# OVS_BIN_DIR: a directory with another ovsdb-server, ovsdb-tool and ovs-appctl (see
# scripts/ovs-versions.sh bin VERSION); the system's otherwise.
[ -z "${OVS_BIN_DIR:-}" ] || export PATH="$OVS_BIN_DIR:$PATH"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
claim_ports
cluster="$here/raft-cluster.sh"
version=$(ovsdb-server --version | awk 'NR==1{print $NF}')
out="$here/../tests/fixtures/ovs-$version"
work=$(mktemp -d /tmp/ovn-raft-fixtures.XXXXXX)
trap 'for d in "$work"/*/; do "$cluster" stop "$d" 2>/dev/null || true; done; rm -rf "$work"' EXIT
mkdir -p "$out"

save() { # name cluster-dir member db
  "$cluster" status "$2" "$3" "$4" >"$out/$1.txt"
  echo "captured $1" >&2
}
appctl() { ovs-appctl -t "$@"; }
port() { free_port 2; }
settle() { sleep "${1:-3}"; }

# What the server says of itself, with clients: memory/show of a leader that two monitoring
# clients watch after 50 transactions, its storage status; then the same leader failed on a
# full disk (the database alone on a small tmpfs, filled through it).
capture_server_facts() {
  local c=$work/facts l ctl pids=()
  mkdir -p "$out/memory-show" "$out/storage-status"
  "$cluster" start "$c" 3 "$(port)" >/dev/null 2>&1
  "$cluster" disk "$c" 1 nb 128k >/dev/null 2>&1
  "$cluster" wait "$c" >/dev/null 2>&1
  "$cluster" lead "$c" 1 nb >/dev/null 2>&1
  ctl=$("$cluster" ctl "$c" 1 nb)
  for _ in 1 2; do
    ovsdb-client monitor "unix:$("$cluster" sock "$c" 1 nb)" OVN_Northbound Logical_Switch name \
      >/dev/null 2>&1 &
    pids+=($!)
  done
  for i in $(seq 50); do ovn-nbctl --db="unix:$("$cluster" sock "$c" 1 nb)" ls-add "sw$i"; done
  settle 1
  appctl "$ctl" memory/show >"$out/memory-show/leader.txt"
  appctl "$ctl" ovsdb-server/get-db-storage-status OVN_Northbound >"$out/storage-status/ok.txt"
  "$cluster" fill "$c" 1 nb >/dev/null 2>&1
  settle 2
  save failed-leader "$c" 1 nb
  appctl "$ctl" memory/show >"$out/memory-show/failed-leader.txt"
  kill "${pids[@]}" 2>/dev/null || true
  "$cluster" stop "$c"
  echo "captured memory-show/leader, storage-status/ok, failed-leader, memory-show/failed-leader" >&2
}
capture_server_facts
[ "${1:-}" != server ] || exit 0

# 3 members, healthy: leader and follower views.
c=$work/three
"$cluster" start "$c" 3 "$(port)" >/dev/null 2>&1
settle
l=$("$cluster" leader "$c" nb)
f=$(((l % 3) + 1))
save leader "$c" "$l" nb
save follower "$c" "$f" nb
save leader-sb "$c" "$("$cluster" leader "$c" sb)" sb

# A member restarted with a fresh database at the same address: two IDs share it.
"$cluster" restart-fresh "$c" "$f" >/dev/null 2>&1
WAIT_SECONDS=30 "$cluster" wait "$c" >/dev/null 2>&1 || true
settle
l=$("$cluster" leader "$c" nb)
save fresh-restart-leader "$c" "$l" nb
save fresh-restart-rejoined "$c" "$f" nb

# Leader loses both followers: it steps down and keeps trying (candidate, disconnected).
for n in 1 2 3; do [ "$n" != "$l" ] && "$cluster" kill "$c" "$n"; done
settle 4
save disconnected-candidate "$c" "$l" nb
# Asking to leave without a majority leaves the server stuck in "leaving cluster".
appctl "$("$cluster" ctl "$c" "$l" nb)" cluster/leave OVN_Northbound >/dev/null || true
settle 1
save leaving "$c" "$l" nb
"$cluster" stop "$c"

# Left: after a successful leave the server forgets the database; the reply is an error.
c=$work/leave
"$cluster" start "$c" 3 "$(port)" >/dev/null 2>&1
l=$("$cluster" leader "$c" nb)
f=$(((l % 3) + 1))
appctl "$("$cluster" ctl "$c" "$f" nb)" cluster/leave OVN_Northbound >/dev/null
for _ in $(seq 50); do
  "$cluster" status "$c" "$f" nb >/dev/null 2>&1 || break
  sleep 0.1
done
save after-leave-leader "$c" "$l" nb
"$cluster" stop "$c"

# 5 members.
c=$work/five
"$cluster" start "$c" 5 "$(port)" >/dev/null 2>&1
settle
l=$("$cluster" leader "$c" nb)
save five-leader "$c" "$l" nb
save five-follower "$c" "$(((l % 5) + 1))" nb
"$cluster" stop "$c"

# Joining through remotes that never answer.
c=$work/joining
mkdir -p "$c/m1"
p=$(port)
echo "BASE_PORT=$p" >"$c/env"
ovsdb-tool join-cluster "$c/m1/nb.db" OVN_Northbound "tcp:127.0.0.1:$p" "tcp:127.0.0.9:$p" "tcp:127.0.0.10:$p"
start_ovsdb_server "$c/m1" nb "$c/m1/nb.db"
settle 2
save joining "$c" 1 nb
"$cluster" stop "$c"

# Single-member clusters on IPv6 loopback and over SSL.
single() { # dir address [extra ovsdb-server args]
  local d=$1 a=$2
  shift 2
  mkdir -p "$d/m1"
  echo "BASE_PORT=0" >"$d/env"
  ovsdb-tool create-cluster "$d/m1/nb.db" /usr/share/ovn/ovn-nb.ovsschema "$a"
  start_ovsdb_server "$d/m1" nb "$d/m1/nb.db" "$@"
  settle 2
}
single "$work/ipv6" "tcp:[::1]:$(port)"
save ipv6-single "$work/ipv6" 1 nb
"$cluster" stop "$work/ipv6"

# (Only where ovsdb-server was built with SSL: scripts/ovs-versions.sh builds without.)
if command -v openssl >/dev/null && ovsdb-server --help 2>&1 | grep -q -- --private-key; then
  pki=$work/pki
  mkdir -p "$pki"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=test-ca -keyout "$pki/ca.key" \
    -out "$pki/ca.pem" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj /CN=ovsdb -keyout "$pki/key.pem" -out "$pki/req.pem" 2>/dev/null
  openssl x509 -req -in "$pki/req.pem" -CA "$pki/ca.pem" -CAkey "$pki/ca.key" -CAcreateserial \
    -days 2 -out "$pki/cert.pem" 2>/dev/null
  single "$work/ssl" "ssl:127.0.0.1:$(port)" --private-key="$pki/key.pem" \
    --certificate="$pki/cert.pem" --ca-cert="$pki/ca.pem"
  save ssl-single "$work/ssl" 1 nb
  "$cluster" stop "$work/ssl"
fi
# Short-lived lines: "Election timer: N (changing to M)" while a leader changes its timer (held
# open by freezing the followers), "Adding server" while a member joins (tried a few times).
# Saved only when caught.
c=$work/transient
"$cluster" start "$c" 3 "$(port)" >/dev/null 2>&1
l=$("$cluster" leader "$c" nb)
ctl=$("$cluster" ctl "$c" "$l" nb)
# Polls the leader's status TRIES times; saves it as NAME when a line matches PATTERN.
catch_status() { # PATTERN NAME TRIES
  local s
  for _ in $(seq "$3"); do
    s=$(appctl "$ctl" cluster/status OVN_Northbound 2>/dev/null || true)
    if grep -q "$1" <<<"$s"; then printf '%s\n' "$s" >"$out/$2.txt"; return 0; fi
  done
  return 1
}
# The timer change stays pending while no follower can acknowledge it: freeze them
# (SIGSTOP), ask for the change, read the status, thaw them.
for n in 1 2 3; do [ "$n" = "$l" ] || "$cluster" freeze "$c" "$n" nb; done
appctl "$ctl" cluster/change-election-timer OVN_Northbound 2000 >/dev/null 2>&1 || true
catch_status "changing to" leader-changing-timer 20 || true
for n in 1 2 3; do [ "$n" = "$l" ] || "$cluster" thaw "$c" "$n" nb; done
WAIT_SECONDS=30 "$cluster" wait "$c" >/dev/null 2>&1 || true
for n in 4 5 6; do
  "$cluster" add "$c" "$n" >/dev/null 2>&1 &
  caught=0
  catch_status "^Adding server" leader-adding-server 200 && caught=1
  wait
  [ "$caught" = 1 ] && break
done
"$cluster" stop "$c"
for f in leader-changing-timer leader-adding-server; do
  [ -f "$out/$f.txt" ] && echo "captured $f" >&2 || echo "missed $f (too short-lived here)" >&2
done
echo "fixtures in $out" >&2
