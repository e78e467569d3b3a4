#!/usr/bin/env bash
# A fresh clone, given civetweb's two pinned tarballs in a directory and no network (its own
# network namespace, unshare -n), configures with -DOVN_RAFT_CIVETWEB_TARBALLS, builds the TLS
# and IPv6 exporter and serves HTTPS on 127.0.0.1 and ::1; given a directory that lacks one of the
# tarballs, or one that differs from its pinned SHA-256, configure fails and names it
# (docs/building.md).
#
#   tests/offline/build_test.sh        (as root: unshare -n)
#
# The clone is of the committed HEAD, in OFFLINE_WORK (default /var/tmp/ovn-raft-exporter-offline),
# a fixed place so that ccache serves the next run; civetweb is built afresh in the namespace.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${OFFLINE_WORK:-/var/tmp/ovn-raft-exporter-offline}
src=$work/src

if [ "${1:-}" != --inside ]; then
  [ "$(id -u)" = 0 ] || { echo "offline: unshare -n needs root"; echo "offline: 0 passed, 1 failed"; exit 1; }
  rm -rf "$src" "$work/civetweb" "$work/partial" "$work/altered" "$work/tls"
  mkdir -p "$work/partial" "$work/altered" "$work/tls"
  git clone -q "$root" "$src"
  # Where there is network (or the cache): what an offline site carries in.
  bash "$src/scripts/build-civetweb.sh" --download "$work/tarballs"
  cp "$work/tarballs"/civetweb_*.orig.tar.xz "$work/partial/"
  cp "$work/tarballs"/civetweb_* "$work/altered/"
  printf 'x' >>"$work/altered/civetweb_1.16+dfsg.orig.tar.xz"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -keyout "$work/tls/server.key" -out "$work/tls/server.crt" -subj /CN=localhost \
    -addext subjectAltName=IP:127.0.0.1,IP:::1 2>/dev/null
  printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\n' "$work/tls/server.crt" \
    "$work/tls/server.key" >"$work/tls/web.yml"
  exec unshare -n bash "$src/tests/offline/build_test.sh" --inside
fi

passed=0 failed=0
expect() { # WHAT STATUS [DETAIL]: STATUS 0 passes
  if [ "$2" = 0 ]; then passed=$((passed + 1)); echo "ok   $1"; else
    failed=$((failed + 1))
    echo "FAIL $1"
    [ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/     /'
  fi
}
ip link set lo up
curl -s --max-time 5 -o /dev/null http://deb.debian.org/debian/ && rc=1 || rc=0
expect "the namespace has no network (deb.debian.org unreachable)" "$rc"

launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_DIR=${CCACHE_DIR:-/var/cache/ovn-raft-exporter/ccache} CCACHE_BASEDIR=$src CCACHE_NOHASHDIR=true
  # This run's own hits and misses, apart from those of the builds sharing the cache.
  export CCACHE_STATSLOG=$work/ccache-stats.log
  rm -f "$CCACHE_STATSLOG"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
configure() { # DIR TARBALLS
  cmake -S "$src" -B "$1" -G Ninja "${launcher[@]}" -DOVN_RAFT_WERROR=ON -DBUILD_TESTING=OFF \
    -DOVN_RAFT_CIVETWEB=source -DOVN_RAFT_CIVETWEB_PREFIX="$work/civetweb" \
    -DOVN_RAFT_CIVETWEB_TARBALLS="$2"
}

configure "$work/build-partial" "$work/partial" >"$work/partial.log" 2>&1 && rc=1 || rc=0
grep -q "partial/civetweb_1.16+dfsg-2+deb13u1.debian.tar.xz is missing" "$work/partial.log" &&
  grep -q "apt-get source --download-only civetweb" "$work/partial.log" || rc=1
expect "a directory without the .debian.tar.xz: configure fails, naming it and where to get it" "$rc" \
  "$(tail -8 "$work/partial.log")"
configure "$work/build-altered" "$work/altered" >"$work/altered.log" 2>&1 && rc=1 || rc=0
grep -q "altered/civetweb_1.16+dfsg.orig.tar.xz does not match its pinned SHA-256" "$work/altered.log" || rc=1
expect "a tarball that differs from its pinned SHA-256: configure fails, naming it" "$rc" \
  "$(tail -8 "$work/altered.log")"

configure "$src/build" "$work/tarballs" >"$work/configure.log" 2>&1 && rc=0 || rc=$?
expect "configure, civetweb built from the tarballs" "$rc" "$(tail -20 "$work/configure.log")"
nice -n 10 ninja -C "$src/build" -j2 ovn-raft-exporter >"$work/build.log" 2>&1 && rc=0 || rc=$?
expect "ninja ovn-raft-exporter" "$rc" "$(tail -20 "$work/build.log")"
[ ${#launcher[@]} -eq 0 ] || ccache --show-log-stats | grep -E '^ *(Hits|Misses):' | tr -s ' ' | sed 's/^/ccache:/'

# The namespace is this test's own: the default port cannot collide with another test's.
exporter=$src/build/exporter/ovn-raft-exporter
if [ -x "$exporter" ]; then
  "$exporter" --web.listen-address=127.0.0.1:10476 --web.listen-address='[::1]:10476' \
    --web.config.file="$work/tls/web.yml" --ovsdb.database=OVN_Northbound="$work/nb.ctl" \
    >"$work/exporter.log" 2>&1 &
  pid=$!
  for _ in $(seq 50); do
    grep -q 'msg=listening' "$work/exporter.log" && break
    sleep 0.2
  done
  for host in 127.0.0.1 '[::1]'; do
    page=$(curl -sS --cacert "$work/tls/server.crt" "https://$host:10476/metrics" 2>&1) && rc=0 || rc=$?
    grep -q '^ovn_raft_exporter_build_info{' <<<"$page" || rc=1
    expect "HTTPS on $host serves the metrics (certificate verified)" "$rc" "$(head -3 <<<"$page"; cat "$work/exporter.log")"
  done
  curl -s --max-time 5 -o /dev/null "http://127.0.0.1:10476/metrics" && rc=1 || rc=0
  expect "plain HTTP is refused" "$rc"
  kill "$pid"
  wait "$pid" || true
fi
echo "offline: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
