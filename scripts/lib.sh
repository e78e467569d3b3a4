#!/usr/bin/env bash
# Shell helpers the scripts share: . "$(dirname "$0")/lib.sh"

# free_port [N]: the first of N (default 1) consecutive TCP ports that nothing on 127.0.0.1
# accepts on, below the kernel's ephemeral range (32768-60999), where an outgoing connection
# could take a port a server is about to listen on.
free_port() {
  local n=${1:-1} p k taken
  for _ in $(seq 200); do
    p=$((20000 + RANDOM % (12000 - n)))
    taken=0
    for k in $(seq 0 $((n - 1))); do
      if (exec 3<>"/dev/tcp/127.0.0.1/$((p + k))") 2>/dev/null; then taken=1; fi
    done
    [ "$taken" = 1 ] || { echo "$p"; return 0; }
  done
  echo "free_port: no $n free port(s) found" >&2
  return 1
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
