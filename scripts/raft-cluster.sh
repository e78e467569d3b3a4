#!/usr/bin/env bash
# Runs real OVN NB/SB (or interconnection) ovsdb-server Raft clusters on loopback, one member
# per 127.0.0.N.
# Used by the integration tests, the fixture capture and the demo, so all three drive the
# cluster the same way.
#
#   raft-cluster.sh start DIR [MEMBERS] [BASE_PORT]   create and start MEMBERS (default 3) members
#                                                      of each database of RAFT_DBS (default
#                                                      "nb sb"; any of nb sb ic_nb ic_sb)
#   raft-cluster.sh wait DIR                           wait until every running member is in the cluster
#   raft-cluster.sh kill DIR N [db]                    SIGKILL member N (every db, or just one)
#   raft-cluster.sh restart DIR N [db]                 restart member N with its existing database
#   raft-cluster.sh restart-fresh DIR N                restart member N with a fresh database, same address
#   raft-cluster.sh split DIR N                        re-create member N as a new single-member cluster
#   raft-cluster.sh add DIR N                          join a new member N to the cluster
#   raft-cluster.sh leader DIR db                      print the member number of db's leader
#   raft-cluster.sh ctl|sock DIR N db                  print a member's unixctl / database socket
#   raft-cluster.sh status DIR N db                    cluster/status of one member (ovs-appctl)
#   raft-cluster.sh freeze|thaw DIR N [db]             SIGSTOP / SIGCONT member N (every db, or one)
#   raft-cluster.sh cut DIR N                          firewall member N off from its peers (iptables)
#   raft-cluster.sh heal DIR N                         remove that firewall
#   raft-cluster.sh leave DIR N db                     member N leaves db's cluster (cluster/leave)
#   raft-cluster.sh disk DIR N db SIZE                 member N's db database on a tmpfs of SIZE
#                                                      (restarts it); again: resize it (no restart)
#   raft-cluster.sh lead DIR N db                      make member N db's leader (freezes leaders)
#   raft-cluster.sh fill DIR N db                      write through member N until it fails (nb|sb)
#                                                      (Status: failed: a full disk, see disk)
#   raft-cluster.sh fill-follower DIR N db [PAUSE]     write through db's leader until it stops
#                                                      hearing member N (a full disk, see disk),
#                                                      PAUSE seconds between writes
#   raft-cluster.sh load DIR db SECONDS [PAUSE]        write through db's leader for SECONDS (or
#                                                      until `unload`), one small transaction
#                                                      every PAUSE s (0.1)
#   raft-cluster.sh unload DIR                         end every load early
#   raft-cluster.sh shutdown DIR N db                  stop member N's db server gracefully
#                                                      (ovs-appctl exit: a leader first transfers
#                                                      leadership); `restart` starts it again
#   raft-cluster.sh transfer DIR db                    db's leader shut down gracefully (it hands
#                                                      leadership over), started again and waited
#                                                      for: a leadership transfer, as at a snapshot
#   raft-cluster.sh slow-disk DIR N db MICROSECONDS    delay member N's fsync/fdatasync returns by
#                                                      that long (strace fault injection)
#   raft-cluster.sh fast-disk DIR N db                 end that delay
#   raft-cluster.sh stop DIR                           kill every member (and remove any firewall)
#
# Layout: DIR/mN/{nb,sb}.{db,ctl,sock,pid,log} (a database moved by `disk`: DIR/mN/disk-db/db.db);
# the interconnection databases under the names ovn-ctl gives them, so that the exporter's
# discovery finds them with OVN_RUNDIR=DIR/mN and OVN_DBDIR=DIR/mN: DIR/mN/ovn_ic_nb_db.* and
# DIR/mN/ovn_ic_sb_db.*. DIR/env holds BASE_PORT and the databases. Member N listens on
# 127.0.0.N:BASE_PORT+I for the I-th database of RAFT_DBS: BASE_PORT (nb) and BASE_PORT+1 (sb)
# by default.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# OVS_BIN_DIR: a directory with another ovsdb-server, ovsdb-tool and ovs-appctl (see
# scripts/ovs-versions.sh bin VERSION); the system's otherwise.
[ -z "${OVS_BIN_DIR:-}" ] || export PATH="$OVS_BIN_DIR:$PATH"

DBS=(nb sb)
declare -A SCHEMA=([nb]=/usr/share/ovn/ovn-nb.ovsschema [sb]=/usr/share/ovn/ovn-sb.ovsschema
  [ic_nb]=/usr/share/ovn/ovn-ic-nb.ovsschema [ic_sb]=/usr/share/ovn/ovn-ic-sb.ovsschema)
declare -A DBNAME=([nb]=OVN_Northbound [sb]=OVN_Southbound
  [ic_nb]=OVN_IC_Northbound [ic_sb]=OVN_IC_Southbound)
# Each database's files in a member's directory: DIR/mN/FILE.{db,ctl,sock,pid,log}.
declare -A FILE=([nb]=nb [sb]=sb [ic_nb]=ovn_ic_nb_db [ic_sb]=ovn_ic_sb_db)

die() { echo "raft-cluster: $*" >&2; exit 1; }

load_env() {
  [ -f "$DIR/env" ] || die "no cluster in $DIR"
  # shellcheck disable=SC1091
  . "$DIR/env"
}

port_of() { # db: BASE_PORT plus its place in DBS
  local i
  for i in "${!DBS[@]}"; do
    [ "${DBS[$i]}" != "$1" ] || { echo $((BASE_PORT + i)); return 0; }
  done
  die "no $1 database in $DIR (${DBS[*]})"
}
only_nb_sb() { # db: the writes below know NB's and SB's tables only
  [ "$1" = nb ] || [ "$1" = sb ] || die "$2 writes to nb or sb only, not $1"
}
addr_of() { echo "tcp:127.0.0.$1:$(port_of "$2")"; }

db_file() { # member db
  local m="$DIR/m$1"
  if mountpoint -q "$m/disk-$2" 2>/dev/null; then echo "$m/disk-$2/${FILE[$2]}.db"; else echo "$m/${FILE[$2]}.db"; fi
}

start_server() { # member db
  local m="$DIR/m$1" run_as=()
  # A member with a uid file runs as that uid (OVN_RAFT_CLUSTER_UID, or cut off once: cmd_cut).
  # shellcheck disable=SC2034 # run_as: read by start_ovsdb_server (lib.sh)
  [ -f "$m/uid" ] && run_as=(setpriv --reuid="$(cat "$m/uid")" --regid="$(cat "$m/uid")" --clear-groups)
  start_ovsdb_server "$m" "${FILE[$2]}" "$(db_file "$1" "$2")" >/dev/null 2>&1 ||
    die "ovsdb-server for member $1 $2 failed to start: $(tail -3 "$m/${FILE[$2]}.log" 2>/dev/null)"
}

kill_server() { # member db
  local pidfile="$DIR/m$1/${FILE[$2]}.pid"
  [ -f "$pidfile" ] || return 0
  local pid
  pid=$(cat "$pidfile")
  kill -9 "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  rm -f "$pidfile" "$DIR/m$1/${FILE[$2]}.ctl" "$DIR/m$1/${FILE[$2]}.sock"
}

join_db() { # member db: write a fresh database file that joins the cluster through member 1's peers
  local m="$DIR/m$1" remotes=() n file
  for n in $(members); do [ "$n" != "$1" ] && remotes+=("$(addr_of "$n" "$2")"); done
  file=$(db_file "$1" "$2")
  rm -f "$file"
  ovsdb-tool join-cluster "$file" "${DBNAME[$2]}" "$(addr_of "$1" "$2")" "${remotes[@]}"
  [ ! -f "$m/uid" ] || chown -R "$(cat "$m/uid"):$(cat "$m/uid")" "$m"
}

members() { # every member number that has a directory
  local d
  for d in "$DIR"/m*; do [ -d "$d" ] && echo "${d##*/m}"; done | sort -n
}

status() { ovs-appctl -t "$DIR/m$1/${FILE[$2]}.ctl" cluster/status "${DBNAME[$2]}"; }

running() { [ -f "$DIR/m$1/${FILE[$2]}.pid" ] && kill -0 "$(cat "$DIR/m$1/${FILE[$2]}.pid")" 2>/dev/null; }

cmd_start() {
  local count=${1:-3} n db
  if [ -n "${RAFT_DBS:-}" ]; then
    read -ra DBS <<<"$RAFT_DBS"
    for db in "${DBS[@]}"; do
      [ -n "${FILE[$db]:-}" ] || die "RAFT_DBS: $db is none of nb sb ic_nb ic_sb"
    done
  fi
  # Without a port given, one per database of a block of its own (lib.sh), held by the servers
  # it starts.
  [ -n "${2:-}" ] || claim_ports
  BASE_PORT=${2:-$(free_port "${#DBS[@]}")}
  mkdir -p "$DIR"
  printf 'BASE_PORT=%s\nDBS=(%s)\n' "$BASE_PORT" "${DBS[*]}" >"$DIR/env"
  for n in $(seq "$count"); do
    mkdir -p "$DIR/m$n"
    # OVN_RAFT_CLUSTER_UID: every member's servers run as this uid and group, as Kube-OVN
    # v1.13+ runs them as 65534 (their sockets: srwxr-x--- UID:UID).
    if [ -n "${OVN_RAFT_CLUSTER_UID:-}" ]; then
      echo "$OVN_RAFT_CLUSTER_UID" >"$DIR/m$n/uid"
      chown -R "$OVN_RAFT_CLUSTER_UID:$OVN_RAFT_CLUSTER_UID" "$DIR/m$n"
    fi
  done
  for db in "${DBS[@]}"; do
    ovsdb-tool create-cluster "$DIR/m1/${FILE[$db]}.db" "${SCHEMA[$db]}" "$(addr_of 1 "$db")"
    [ ! -f "$DIR/m1/uid" ] || chown -R "$(cat "$DIR/m1/uid"):$(cat "$DIR/m1/uid")" "$DIR/m1"
    start_server 1 "$db"
    for n in $(seq 2 "$count"); do
      join_db "$n" "$db"
      start_server "$n" "$db"
    done
  done
  cmd_wait
}

unsettled() { # what each member says, for the log of a cluster that did not settle
  local n db
  for n in $(members); do
    for db in "${DBS[@]}"; do
      echo "raft-cluster: member $n $db: $(running "$n" "$db" && echo running || echo down)," \
        "$(status "$n" "$db" 2>&1 | grep -E '^(Status|Role|Leader|Term|Address):' | tr '\n' ' ')" >&2
      tail -3 "$DIR/m$n/${FILE[$db]}.log" 2>/dev/null | sed 's/^/    /' >&2
    done
  done
}

cmd_wait() {
  local deadline=$((SECONDS + ${WAIT_SECONDS:-60})) n db ok
  while :; do
    ok=1
    for n in $(members); do
      for db in "${DBS[@]}"; do
        running "$n" "$db" || continue
        status "$n" "$db" 2>/dev/null | grep -q '^Status: cluster member' || ok=0
        status "$n" "$db" 2>/dev/null | grep -q '^Leader: unknown' && ok=0
      done
    done
    [ "$ok" = 1 ] && return 0
    if [ $SECONDS -ge $deadline ]; then
      unsettled
      die "cluster in $DIR did not settle"
    fi
    sleep 0.2
  done
}

cmd_leader() {
  local n
  for n in $(members); do
    running "$n" "$1" || continue
    if status "$n" "$1" 2>/dev/null | grep -q '^Role: leader'; then echo "$n"; return 0; fi
  done
  return 1
}

# Every loopback connection leaves from 127.0.0.1, so member N's own connections are told
# apart by their owner: its servers run under a uid of their own, every connection that uid
# sends on is marked and then dropped both ways, as is anything sent to 127.0.0.N's Raft ports.
# The servers are (re)started after the rules, so that no connection from before them (whose
# mark would wait for member N to send) lets a last message through. The rules live in a chain
# named after the cluster's ports, so that concurrent clusters never touch each other's.
chain_of() { echo "OVNRAFT-$BASE_PORT"; }
# Clusters cut and healed side by side take the xtables lock at once: wait for it.
iptables() { command iptables -w 30 "$@"; }
cmd_cut() { # member
  local m="$DIR/m$1" uid chain db mark ports=()
  if [ ! -f "$m/uid" ]; then
    echo $((40000 + BASE_PORT % 20000)) >"$m/uid"
    chmod 755 "$DIR"
  fi
  uid=$(cat "$m/uid")
  chown -R "$uid:$uid" "$m"
  chain=$(chain_of)
  mark=$((0x4000 + BASE_PORT % 0x3fff))
  iptables -N "$chain" 2>/dev/null || iptables -F "$chain"
  iptables -C OUTPUT -j "$chain" 2>/dev/null || iptables -I OUTPUT -j "$chain"
  iptables -A "$chain" -p tcp -m owner --uid-owner "$uid" -j CONNMARK --set-mark "$mark"
  iptables -A "$chain" -p tcp -m connmark --mark "$mark" -j DROP
  for db in "${DBS[@]}"; do ports+=("$(port_of "$db")"); done
  iptables -A "$chain" -p tcp -d "127.0.0.$1" -m multiport --dports "$(IFS=,; echo "${ports[*]}")" -j DROP
  for db in "${DBS[@]}"; do kill_server "$1" "$db"; start_server "$1" "$db"; done
}
cmd_heal() {
  local chain
  chain=$(chain_of)
  iptables -D OUTPUT -j "$chain" 2>/dev/null || true
  iptables -F "$chain" 2>/dev/null || true
  iptables -X "$chain" 2>/dev/null || true
}

# A full disk, on purpose: the database alone moves to a tmpfs of SIZE (its log, sockets and
# pid file stay), so that the server's writes fail with ENOSPC while it can still log why.
# Called again, it resizes the tmpfs in place, as an operator grows a volume.
cmd_disk() { # member db size
  local m="$DIR/m$1" disk="$DIR/m$1/disk-$2"
  if mountpoint -q "$disk"; then
    mount -o remount,size="$3" "$disk"
    return
  fi
  kill_server "$1" "$2"
  mkdir -p "$disk"
  mount -t tmpfs -o size="$3",mode=0755 ovn-raft-disk "$disk"
  mv "$m/${FILE[$2]}.db" "$disk/${FILE[$2]}.db"
  [ ! -f "$m/uid" ] || chown -R "$(cat "$m/uid"):$(cat "$m/uid")" "$disk"
  start_server "$1" "$2"
}
unmount_disks() {
  local d
  for d in "$DIR"/m*/disk-*; do ! mountpoint -q "$d" 2>/dev/null || umount "$d"; done
}

# Writes through member N (small rows, one transaction each) until its status says failed:
# on a disk that `disk` made small, the server's write fails and it enters failure mode.
cmd_fill() { # member db
  only_nb_sb "$2" fill
  local i sock="unix:$DIR/m$1/$2.sock"
  for i in $(seq 5000); do
    if status "$1" "$2" 2>/dev/null | grep -q '^Status: failed'; then return 0; fi
    if [ "$2" = nb ]; then
      ovn-nbctl --no-leader-only --timeout=2 --db="$sock" ls-add "fill-$i" >/dev/null 2>&1 || true
    else
      ovn-sbctl --no-leader-only --timeout=2 --db="$sock" chassis-add "fill-$i" geneve \
        "127.1.$((i / 250)).$((i % 250 + 1))" >/dev/null 2>&1 || true
    fi
  done
  die "member $1 $2 did not fail after 5000 writes"
}

# Writes through db's leader (small rows, one transaction each) until the leader stops hearing
# member N, a follower whose database `disk` made small: its last message from N is 3 s old.
# Unlike a leader, such a follower does not enter failure mode: it keeps running and calls
# itself a cluster member. (Its first failed write may be a snapshot's, which it survives.)
cmd_fill_follower() { # member db [pause]
  only_nb_sb "$2" fill-follower
  local i l ago
  for i in $(seq 5000); do
    [ "${3:-0}" = 0 ] || sleep "$3"
    l=$(cmd_leader "$2") || continue
    ago=$(status "$l" "$2" 2>/dev/null |
      sed -n "s/.* at tcp:127\.0\.0\.$1:.* last msg \([0-9]*\) ms ago.*/\1/p")
    if [ -n "$ago" ] && [ "$ago" -ge 3000 ]; then return 0; fi
    if [ "$2" = nb ]; then
      ovn-nbctl --timeout=2 --db="unix:$DIR/m$l/$2.sock" ls-add "fill-$i" >/dev/null 2>&1 || true
    else
      ovn-sbctl --timeout=2 --db="unix:$DIR/m$l/$2.sock" chassis-add "fill-$i" geneve \
        "127.1.$((i / 250)).$((i % 250 + 1))" >/dev/null 2>&1 || true
    fi
  done
  die "the leader still heard member $1 ($2) after 5000 writes"
}

# A steady write load: small rows, one transaction each, through whichever member leads.
cmd_load() { # db seconds [pause]
  only_nb_sb "$1" load
  local end=$((SECONDS + $2)) i=0 l=""
  rm -f "$DIR/unload"
  while [ $SECONDS -lt $end ] && [ ! -e "$DIR/unload" ]; do
    i=$((i + 1))
    [ -n "$l" ] || l=$(cmd_leader "$1") || { sleep 0.2; continue; }
    if [ "$1" = nb ]; then
      ovn-nbctl --timeout=2 --db="unix:$DIR/m$l/nb.sock" ls-add "load-$$-$i" >/dev/null 2>&1 || l=""
    else
      ovn-sbctl --timeout=2 --db="unix:$DIR/m$l/sb.sock" chassis-add "load-$$-$i" geneve \
        "127.2.$((i / 250 % 250)).$((i % 250 + 1))" >/dev/null 2>&1 || l=""
    fi
    sleep "${3:-0.1}"
  done
}

# A slow disk, on purpose: every fsync and fdatasync of member N's db server returns that many
# microseconds late (strace's fault injection, stopping the server on those calls alone), as a
# disk with a slow write cache does. The server keeps running and answering.
cmd_slow_disk() { # member db microseconds
  local pidfile="$DIR/m$1/${FILE[$2]}.strace.pid"
  running "$1" "$2" || die "member $1 $2 is not running"
  cmd_fast_disk "$1" "$2"
  strace -f -qq --seccomp-bpf -o /dev/null -p "$(cat "$DIR/m$1/${FILE[$2]}.pid")" -e trace=fsync,fdatasync \
    -e inject=fsync,fdatasync:delay_exit="$3" </dev/null >/dev/null 2>&1 &
  echo $! >"$pidfile"
  sleep 0.5  # attached
}
cmd_fast_disk() { # member db
  local pidfile="$DIR/m$1/${FILE[$2]}.strace.pid"
  [ -f "$pidfile" ] || return 0
  kill "$(cat "$pidfile")" 2>/dev/null || true
  rm -f "$pidfile"
}

# A graceful stop: the server closes its storage, and a leader hands over leadership first.
cmd_shutdown() { # member db
  local pid
  pid=$(cat "$DIR/m$1/${FILE[$2]}.pid")
  ovs-appctl -t "$DIR/m$1/${FILE[$2]}.ctl" exit
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill_server "$1" "$2"
}

cmd_transfer() { # db
  local l
  l=$(cmd_leader "$1") || die "no leader of $1"
  cmd_shutdown "$l" "$1"
  start_server "$l" "$1"
  cmd_wait
}

# Raft has no command to hand leadership over: freeze the leader until the others elect a new
# one, thaw it (it steps down), and again until member N leads (each election is a coin toss).
cmd_lead() { # member db
  local l n tries=0
  while l=$(cmd_leader "$2") && [ "$l" != "$1" ]; do
    tries=$((tries + 1))
    [ "$tries" -le 20 ] || die "member $1 did not become $2's leader"
    kill -STOP "$(cat "$DIR/m$l/${FILE[$2]}.pid")"
    # A frozen server never answers: ask the others only.
    for _ in $(seq 100); do
      for n in $(members); do
        [ "$n" != "$l" ] && running "$n" "$2" &&
          ovs-appctl -T 1 -t "$DIR/m$n/${FILE[$2]}.ctl" cluster/status "${DBNAME[$2]}" 2>/dev/null |
          grep -q '^Role: leader' && break 2
      done
      sleep 0.1
    done
    kill -CONT "$(cat "$DIR/m$l/${FILE[$2]}.pid")"
    cmd_wait
  done
  [ "$(cmd_leader "$2")" = "$1" ]
}

DIR_ARG=${2:-}
[ -n "$DIR_ARG" ] || die "usage: raft-cluster.sh COMMAND DIR ..."
DIR=$(realpath -m "$DIR_ARG")
case "$1" in
  start) cmd_start "${3:-}" "${4:-}" ;;
  wait) load_env; cmd_wait ;;
  kill)
    load_env
    for db in ${4:-${DBS[@]}}; do kill_server "$3" "$db"; done ;;
  restart)
    load_env
    for db in ${4:-${DBS[@]}}; do kill_server "$3" "$db"; start_server "$3" "$db"; done ;;
  restart-fresh)
    load_env
    for db in "${DBS[@]}"; do kill_server "$3" "$db"; join_db "$3" "$db"; start_server "$3" "$db"; done ;;
  split)
    load_env
    for db in "${DBS[@]}"; do
      kill_server "$3" "$db"
      rm -f "$DIR/m$3/${FILE[$db]}.db"
      ovsdb-tool create-cluster "$DIR/m$3/${FILE[$db]}.db" "${SCHEMA[$db]}" "$(addr_of "$3" "$db")"
      start_server "$3" "$db"
    done ;;
  add)
    load_env
    mkdir -p "$DIR/m$3"
    for db in "${DBS[@]}"; do join_db "$3" "$db"; start_server "$3" "$db"; done ;;
  leader) load_env; cmd_leader "$3" ;;
  ctl) echo "$DIR/m$3/${FILE[$4]}.ctl" ;;
  sock) echo "$DIR/m$3/${FILE[$4]}.sock" ;;
  status) load_env; status "$3" "$4" ;;
  freeze | thaw)
    load_env
    signal=STOP
    [ "$1" = thaw ] && signal=CONT
    for db in ${4:-${DBS[@]}}; do
      running "$3" "$db" && kill -"$signal" "$(cat "$DIR/m$3/${FILE[$db]}.pid")"
    done ;;
  cut) load_env; cmd_cut "$3" ;;
  heal) load_env; cmd_heal ;;
  leave) load_env; ovs-appctl -t "$DIR/m$3/${FILE[$4]}.ctl" cluster/leave "${DBNAME[$4]}" ;;
  disk) load_env; cmd_disk "$3" "$4" "$5" ;;
  lead) load_env; cmd_lead "$3" "$4" ;;
  fill) load_env; cmd_fill "$3" "$4" ;;
  fill-follower) load_env; cmd_fill_follower "$3" "$4" "${5:-0}" ;;
  load) load_env; cmd_load "$3" "$4" "${5:-0.1}" ;;
  unload) load_env; touch "$DIR/unload" ;;
  shutdown) load_env; cmd_shutdown "$3" "$4" ;;
  transfer) load_env; cmd_transfer "$3" ;;
  slow-disk) load_env; cmd_slow_disk "$3" "$4" "$5" ;;
  fast-disk) load_env; cmd_fast_disk "$3" "$4" ;;
  stop)
    [ -f "$DIR/env" ] || exit 0
    load_env
    [ -z "$(ls "$DIR"/m*/uid 2>/dev/null)" ] || cmd_heal
    for f in "$DIR"/m*/*.strace.pid; do [ ! -f "$f" ] || { kill "$(cat "$f")" 2>/dev/null || true; rm -f "$f"; }; done
    for n in $(members); do for db in "${DBS[@]}"; do kill_server "$n" "$db"; done; done
    unmount_disks ;;
  *) die "unknown command $1" ;;
esac
