#!/usr/bin/env bash
# Shell helpers the scripts share: . "$(dirname "$0")/lib.sh"

# Ports for scripts and tests that run side by side (the same protocol as
# tests/support/ports.h): a process owns block N (ports 20000 + 200 N .. +199, N < 60, below the
# kernel's ephemeral range 32768-60999) while it holds an flock on /tmp/ovn-raft-ports/N.lock;
# the children that inherit the descriptor (detached servers) keep it while they live.
# claim_ports: owns a block for this shell (call it in the script itself, not in $(...)) and
# exports OVN_RAFT_PORT_BLOCK so that the programs it starts take from the same block. Keeps
# an inherited OVN_RAFT_PORT_BLOCK.
claim_ports() {
  [ -z "${OVN_RAFT_PORT_BLOCK:-}" ] || return 0
  local dir=/tmp/ovn-raft-ports n
  mkdir -p "$dir" && chmod 1777 "$dir" 2>/dev/null || true
  for n in $(seq 0 59); do
    exec {OVN_RAFT_PORT_FD}<>"$dir/$n.lock"
    if flock -n "$OVN_RAFT_PORT_FD"; then
      : >"$dir/$n.next"
      export OVN_RAFT_PORT_BLOCK=$n
      return 0
    fi
    exec {OVN_RAFT_PORT_FD}>&-
  done
  echo "claim_ports: every port block under $dir is owned" >&2
  return 1
}

# free_port [N]: the first of N (default 1) consecutive ports of the block claim_ports owns.
free_port() {
  local n=${1:-1} next
  [ -n "${OVN_RAFT_PORT_BLOCK:-}" ] || { echo "free_port: call claim_ports first" >&2; return 1; }
  local file=/tmp/ovn-raft-ports/$OVN_RAFT_PORT_BLOCK.next
  {
    flock 8
    next=$(cat "$file" 2>/dev/null)
    next=${next:-0}
    [ $((next + n)) -le 200 ] || { echo "free_port: port block $OVN_RAFT_PORT_BLOCK is used up" >&2; return 1; }
    echo $((next + n)) >"$file"
  } 8>>"$file"
  echo $((20000 + OVN_RAFT_PORT_BLOCK * 200 + next))
}

# scratch_dir PREFIX: a fresh directory /tmp/PREFIX.XXXXXX in $dir, and an empty $pids array;
# at exit every process in $pids is killed, the cluster started in $dir/c is stopped and $dir
# is removed.
scratch_dir() {
  dir=$(mktemp -d "/tmp/$1.XXXXXX")
  pids=()
  trap _remove_scratch_dir EXIT
}
_remove_scratch_dir() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  bash "$(dirname "${BASH_SOURCE[0]}")/raft-cluster.sh" stop "$dir/c" >/dev/null 2>&1 || true
  rm -rf "$dir"
}

# shellcheck disable=SC2154 # run_as: optional, set by the caller
# start_ovsdb_server DIR NAME DB_FILE [ARGS...]: a detached ovsdb-server with DIR/NAME.pid,
# .log, .ctl (unixctl) and .sock (database socket), run as the caller's `run_as` command
# prefix (an array) when it sets one.
start_ovsdb_server() {
  local d=$1 name=$2 file=$3
  shift 3
  "${run_as[@]}" ovsdb-server --detach --no-chdir --pidfile="$d/$name.pid" --log-file="$d/$name.log" \
    --unixctl="$d/$name.ctl" --remote="punix:$d/$name.sock" "$@" "$file"
}

# start_exporter BIN PORT MEMBER_DIR [FLAGS...]: in the background ($! is its pid), the
# exporter of one member's NB and SB (MEMBER_DIR/{nb,sb}.{ctl,sock}) on 127.0.0.1:PORT.
start_exporter() {
  local bin=$1 port=$2 m=$3
  shift 3
  "$bin" --web.listen-address="127.0.0.1:$port" \
    --ovsdb.database="OVN_Northbound=$m/nb.ctl,$m/nb.sock" \
    --ovsdb.database="OVN_Southbound=$m/sb.ctl,$m/sb.sock" "$@" &
}

# The set-up the tests on a real cluster share, so that each says only what it does:
# scenario_begin NAME BUILD_DIR: $bin (BUILD_DIR's exporter, or fail), a fresh $work
# (/tmp/ovn-raft-NAME.XXXXXX, kept when KEEP_WORK is set), $cluster ($work/cluster), an empty
# $pids, fail MESSAGE, and scenario_cleanup at exit. A test with more to undo traps its own
# cleanup, which calls scenario_cleanup last.
scenario_begin() {
  fail() { echo "FAIL: $*" >&2; exit 1; }
  build=$2
  bin="$build/exporter/ovn-raft-exporter"
  work=$(mktemp -d "/tmp/ovn-raft-$1.XXXXXX")
  cluster="$work/cluster"
  pids=()
  trap scenario_cleanup EXIT
  [ -x "$bin" ] || fail "no exporter at $bin (ninja -C $build ovn-raft-exporter)"
}
# scenario_cleanup: kills $pids, stops the Prometheus of $work/prometheus (prometheus-demo.sh),
# the load on $cluster and $cluster, and removes $work.
scenario_cleanup() {
  local p lib
  lib=$(dirname "${BASH_SOURCE[0]}")
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  "$lib/prometheus-demo.sh" stop "$work/prometheus" 2>/dev/null || true
  "$lib/raft-cluster.sh" unload "$cluster" >/dev/null 2>&1 || true
  "$lib/raft-cluster.sh" stop "$cluster" >/dev/null 2>&1 || true
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}
# scenario_exporters N FIRST_PORT [FLAGS...]: start_exporter for members 1..N of $cluster on
# FIRST_PORT.. (logs $work/exporter-M.log), their pids added to $pids, their URLs in $urls.
scenario_exporters() {
  local n=$1 port=$2 m
  shift 2
  urls=()
  for m in $(seq "$n"); do
    start_exporter "$bin" "$((port + m - 1))" "$cluster/m$m" "$@" 2>>"$work/exporter-$m.log"
    pids+=($!)
    urls+=("http://127.0.0.1:$((port + m - 1))")
  done
}

# scenario_prometheus PORT CONFIG: a Prometheus of its own on PORT with CONFIG (data and log in
# $work), its pid added to $pids; returns once it is ready.
scenario_prometheus() {
  prometheus --config.file="$2" --storage.tsdb.path="$work/data" \
    --web.listen-address="127.0.0.1:$1" --log.level=warn >>"$work/prometheus.log" 2>&1 &
  pids+=($!)
  wait_for 60 "Prometheus ready" curl -sf -o /dev/null "http://127.0.0.1:$1/-/ready"
}

# speed_up_for_durations IN N OUT [MIN]: the rules file IN with every `for:` divided by N (whole
# seconds, at least MIN, default $OVN_RAFT_FOR_MIN or 1) and every group at the global interval
# (one_interval) written to OUT, so that a test or demo can watch a whole for: window. A test's
# floor of a few evaluation intervals keeps an alert from firing on one sample, as it cannot
# with the shipped for:.
speed_up_for_durations() {
  awk -v n="$2" -v min="${4:-${OVN_RAFT_FOR_MIN:-1}}" '
    /^ *for: [0-9]+[smh]$/ {
      match($0, /[0-9]+[smh]$/); v = substr($0, RSTART, RLENGTH - 1); u = substr($0, RSTART + RLENGTH - 1, 1)
      s = v * (u == "h" ? 3600 : u == "m" ? 60 : 1); s = int(s / n); if (s < min) s = min
      print substr($0, 1, RSTART - 1) s "s"; next
    }
    { print }' "$1" >"$3.new"
  one_interval "$3.new" "$3"
  rm -f "$3.new"
}

# one_interval IN OUT: the rules file IN with no group's own `interval` written to OUT (IN may
# be OUT), so that every group runs at the global evaluation interval: a demo or test that
# evaluates every few seconds then sees the slow groups' verdicts as fast as the others.
one_interval() {
  python3 -c 'import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
for g in doc["groups"]:
    g.pop("interval", None)
yaml.safe_dump(doc, open(sys.argv[2], "w"), sort_keys=False, width=1000)' "$1" "$2.new"
  mv "$2.new" "$2"
}

# wait_for SECONDS WHAT CONDITION...: runs CONDITION every second until it holds; after SECONDS
# tries, says WHAT did not happen and exits 1.
wait_for() {
  local n=$1 what=$2
  shift 2
  for _ in $(seq "$n"); do "$@" && return 0; sleep 1; done
  echo "FAIL: $what: not within $n s" >&2
  exit 1
}

# Prometheus on 127.0.0.1:PORT, as the tests ask it:
# prom_query PORT QUERY: the API's JSON answer to an instant query.
prom_query() { curl -s "http://127.0.0.1:$1/api/v1/query" --data-urlencode "query=$2"; }
# prom_value PORT QUERY: the first series' value, or "none" when there is none.
prom_value() { prom_query "$1" "$2" | jq -r '.data.result[0].value[1] // "none"'; }
# prom_label PORT QUERY LABEL: that label of the first series, or "none".
prom_label() { prom_query "$1" "$2" | jq -r --arg l "$3" '.data.result[0].metric[$l] // "none"'; }
# prom_alerts PORT [QUERY [LABEL...]]: one "alertname alertstate LABEL..." line per series of QUERY
# (default: ALERTS), "-" for a label it lacks, sorted, without repeats.
prom_alerts() {
  local port=$1 q=${2:-ALERTS}
  shift $(($# < 2 ? $# : 2))
  prom_query "$port" "$q" | jq -r --args '.data.result[].metric as $m
    | ([$m.alertname // "-", $m.alertstate // "-"] + [$ARGS.positional[] as $l | $m[$l] // "-"]) | join(" ")' "$@" |
    sort -u
}
