#!/usr/bin/env bash
# The Open vSwitch releases the integration tests run against: Debian 12's own (the system
# package), and the openvswitch source packages of Debian 13 (trixie) and unstable (sid),
# built once into a cache outside the source tree and reused by later runs on the machine.
#
#   scripts/ovs-versions.sh list          the versions available, one a line ("3.1.0 system")
#   scripts/ovs-versions.sh bin VERSION   a directory with that version's ovsdb-server,
#                                         ovsdb-tool and ovs-appctl (built when missing)
#
# The source packages come through a private apt configuration (its own sources.list and
# lists), so the system's package lists stay Debian 12's. OVS_CACHE overrides the cache
# (default /var/cache/ovn-raft-exporter/ovs).
set -euo pipefail
cache=${OVS_CACHE:-/var/cache/ovn-raft-exporter/ovs}
suites=(trixie sid)
say() { echo "ovs-versions: $*" >&2; }
die() { say "$*"; exit 1; }

sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
apt_opts=(-o "Dir::Etc::sourcelist=$cache/apt/sources.list" -o "Dir::Etc::sourceparts=/nonexistent"
  -o "Dir::State::Lists=$cache/apt/lists" -o "Dir::Cache=$cache/apt")

system_version() {
  ovsdb-server --version 2>/dev/null | sed -nE '1s/.* ([0-9]+\.[0-9]+\.[0-9]+).*/\1/p'
}

index() { # the private source index, refreshed once a day
  mkdir -p "$cache/apt/lists/partial" "$cache/apt/archives/partial"
  local list="$cache/apt/sources.list"
  : >"$list.new"
  for s in "${suites[@]}"; do echo "deb-src http://deb.debian.org/debian $s main" >>"$list.new"; done
  mv "$list.new" "$list"
  if [ -z "$(find "$cache/apt/lists" -name '*Sources*' -mtime -1 2>/dev/null | head -1)" ]; then
    apt-get "${apt_opts[@]}" update -q >"$cache/apt/update.log" 2>&1 ||
      die "cannot read the source index: $(tail -3 "$cache/apt/update.log")"
  fi
}

source_versions() { # upstream versions of the openvswitch source packages, one a line
  apt-cache "${apt_opts[@]}" showsrc openvswitch 2>/dev/null |
    sed -nE 's/^Version: ([0-9.]+)-.*/\1/p' | sort -uV
}

# Whether the mirror still serves a version's source package (an index can name files the
# pool no longer has).
available() { # VERSION
  local full
  full=$(apt-cache "${apt_opts[@]}" showsrc openvswitch | sed -nE "s/^Version: ($1-.*)/\1/p" | head -1)
  curl -sfI -o /dev/null "http://deb.debian.org/debian/pool/main/o/openvswitch/openvswitch_$full.dsc"
}

cmd_list() {
  echo "$(system_version) system"
  index
  local v
  for v in $(source_versions); do
    [ "$v" = "$(system_version)" ] && continue
    if [ -x "$cache/$v/bin/ovsdb-server" ] || available "$v"; then
      echo "$v source"
    else
      echo "$v unavailable (the mirror no longer serves its source package)"
    fi
  done
}

build() { # VERSION DIR
  local version=$1 dir=$2 work t0=$SECONDS
  need=()
  for p in dpkg-dev autoconf automake libtool pkg-config python3 build-essential; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
  done
  if [ ${#need[@]} -gt 0 ]; then
    $sudo_cmd apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
  fi
  index
  local full
  full=$(apt-cache "${apt_opts[@]}" showsrc openvswitch | sed -nE "s/^Version: ($version-.*)/\1/p" | head -1)
  [ -n "$full" ] || die "no openvswitch $version among the source packages ($(source_versions | tr '\n' ' '))"
  work="$cache/src-$version"
  rm -rf "$work"
  mkdir -p "$work"
  say "building Open vSwitch $full from Debian's source package into $dir"
  (cd "$work" && apt-get "${apt_opts[@]}" source --download-only -q "openvswitch=$full" >download.log 2>&1) ||
    die "apt-get source failed: $(tail -3 "$work/download.log")"
  (cd "$work" && dpkg-source -x --no-check ./*.dsc tree >extract.log 2>&1) ||
    die "dpkg-source failed: $(tail -3 "$work/extract.log")"
  (
    cd "$work/tree"
    autoreconf -fi >../build.log 2>&1
    ./configure --disable-ssl --disable-libcapng --enable-silent-rules >>../build.log 2>&1
    # Only the three programs, but first the generated headers `make all` would make.
    built=$(printf 'print-built-sources:\n\t@echo $(BUILT_SOURCES)\n' | make -s -f Makefile -f - print-built-sources)
    # shellcheck disable=SC2086
    make -j"$(nproc)" $built >>../build.log 2>&1
    make -j"$(nproc)" ovsdb/ovsdb-server ovsdb/ovsdb-tool utilities/ovs-appctl >>../build.log 2>&1
  ) || die "build of $full failed: $(tail -5 "$work/build.log")"
  mkdir -p "$dir.tmp"
  cp "$work/tree/ovsdb/ovsdb-server" "$work/tree/ovsdb/ovsdb-tool" "$work/tree/utilities/ovs-appctl" "$dir.tmp/"
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
  echo "$full built in $((SECONDS - t0)) s" >"$dir/BUILD"
  rm -rf "$work"
  say "$(cat "$dir/BUILD")"
}

cmd_bin() {
  local version=$1
  if [ "$version" = "$(system_version)" ]; then
    local dir="$cache/system-$version"
    mkdir -p "$dir"
    ln -sf "$(command -v ovsdb-server)" "$dir/ovsdb-server"
    ln -sf "$(command -v ovsdb-tool)" "$dir/ovsdb-tool"
    ln -sf "$(command -v ovs-appctl)" "$dir/ovs-appctl"
    echo "$dir"
    return
  fi
  local dir="$cache/$version/bin"
  [ -x "$dir/ovsdb-server" ] || build "$version" "$dir"
  "$dir/ovsdb-server" --version | grep -q " $version" || die "$dir/ovsdb-server is not $version"
  echo "$dir"
}

case "${1:-}" in
  list) cmd_list ;;
  bin) [ -n "${2:-}" ] || die "usage: $0 bin VERSION"; cmd_bin "$2" ;;
  *) die "usage: $0 list | bin VERSION" ;;
esac
