#!/usr/bin/env bash
# The Open vSwitch releases the integration tests run against: Debian 12's own (the system
# package), and those of Debian 13 (trixie) and unstable (sid). A newer release comes from its
# suite's binary packages where the mirror has them, else from its source package, built once.
# Both land in a cache outside the source tree and are reused by later runs on the machine.
#
#   scripts/ovs-versions.sh list          the versions available, oldest first, one a line:
#                                         "3.1.0 system", "3.5.0 binary trixie 3.5.0-1+b1",
#                                         "X source sid X-1", or "X unavailable (why)"
#   scripts/ovs-versions.sh bin VERSION   a directory with that version's ovsdb-server,
#                                         ovsdb-tool, ovs-appctl and ovsdb-client (fetched or
#                                         built when missing)
#
# Binary packages need their suite's C library: they are unpacked with their shared-library
# dependencies into one root, and the directory `bin` prints holds small wrappers that run each
# program through that root's own loader, so nothing is installed on the system. Every .deb is
# checked against the SHA-256 of the suite's index (signed by its Release file) when it is
# downloaded and again when a cached copy is reused.
#
# The indexes come through private apt configurations (their own sources.list and lists), so
# the system's package lists stay Debian 12's. OVS_CACHE overrides the cache
# (default /var/cache/ovn-raft-exporter/ovs).
set -euo pipefail
cache=${OVS_CACHE:-/var/cache/ovn-raft-exporter/ovs}
suites=(trixie sid)
say() { echo "ovs-versions: $*" >&2; }
die() { say "$*"; exit 1; }

sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
# shellcheck source=debian-suites.sh
. "$(dirname "$0")/debian-suites.sh"

indexes() {
  local s src=()
  for s in "${suites[@]}"; do
    suite_index "$s"
    src+=("deb-src $mirror $s main")
  done
  index src "${src[@]}"
}

upstream() { sed -E 's/^([0-9.]+)-.*/\1/'; } # a Debian version's upstream part
system_version() {
  ovsdb-server --version 2>/dev/null | sed -nE '1s/.* ([0-9]+\.[0-9]+\.[0-9]+).*/\1/p'
}
binary_version() { # SUITE: the full version of openvswitch-common the suite's index names
  apt_cache "$1" show --no-all-versions openvswitch-common 2>/dev/null | sed -nE 's/^Version: //p' | head -1
}
source_versions() { # full versions of the openvswitch source packages, one a line
  apt_cache src showsrc openvswitch 2>/dev/null | sed -nE 's/^Version: //p' | sort -uV
}

# Whether the mirror still serves a source package (an index can name files the pool no longer has).
source_served() { # FULL
  curl -sfI -o /dev/null "$mirror/pool/main/o/openvswitch/openvswitch_${1#*:}.dsc"
}

cmd_list() {
  local sys s full v seen=" "
  sys=$(system_version)
  echo "$sys system"
  seen+="$sys "
  indexes
  for s in "${suites[@]}"; do
    full=$(binary_version "$s")
    [ -n "$full" ] || continue
    v=$(upstream <<<"$full")
    [[ $seen == *" $v "* ]] && continue
    seen+="$v "
    echo "$v binary $s $full"
  done
  for full in $(source_versions); do
    v=$(upstream <<<"$full")
    [[ $seen == *" $v "* ]] && continue
    seen+="$v "
    if [ -x "$cache/$v/bin/ovsdb-server" ] || source_served "$full"; then
      echo "$v source - $full"
    else
      echo "$v unavailable (the mirror no longer serves its source package $full)"
    fi
  done | sort -V
}

# The packages openvswitch-common needs at run time, itself included: its dependency closure
# in the suite, without recommendations and pre-dependencies (maintainer-script needs).
closure() { # SUITE
  apt_cache "$1" depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances --no-pre-depends openvswitch-common 2>/dev/null |
    grep -E '^[a-z0-9]' | sort -u
}

unpack() { # VERSION SUITE DIR: the suite's binaries and their libraries, and wrappers in DIR
  local version=$1 suite=$2 dir=$3 t0=$SECONDS full root pkg debs=() loader libdir p bytes=0
  full=$(binary_version "$suite")
  root="$cache/$version/root"
  say "fetching Open vSwitch $full from Debian $suite's binary packages"
  for pkg in $(closure "$suite"); do debs+=("$(fetch_deb "$suite" "$pkg")"); done
  rm -rf "$root" "$dir.tmp"
  mkdir -p "$root" "$dir.tmp"
  sha256sum "${debs[@]}" >"$cache/$version/debs.sha256"
  for p in "${debs[@]}"; do
    dpkg-deb -x "$p" "$root"
    bytes=$((bytes + $(stat -c %s "$p")))
  done
  loader=$(find "$root" -name 'ld-linux*.so.*' \( -type f -o -type l \) | sort | head -1)
  [ -n "$loader" ] || die "no dynamic loader among $suite's libc6"
  libdir=$(dirname "$(readlink -f "$loader")")
  for p in ovsdb-server:usr/sbin ovsdb-tool:usr/bin ovs-appctl:usr/bin ovsdb-client:usr/bin; do
    local name=${p%%:*} bin="$root/${p#*:}/${p%%:*}"
    [ -x "$bin" ] || die "$full has no $name"
    # Every library the program needs must come from the root: the system's are too old.
    if "$loader" --library-path "$libdir" --list "$bin" | grep -q 'not found'; then
      die "$name lacks libraries: $("$loader" --library-path "$libdir" --list "$bin" | grep 'not found' | tr -s ' \t' ' ')"
    fi
    # --argv0 keeps the program's own name, which OVS uses for its log lines and default paths.
    printf '#!/bin/sh\n# Open vSwitch %s from Debian %s, run through its own C library.\nexec "%s" --library-path "%s" --argv0 "$0" "%s" "$@"\n' \
      "$full" "$suite" "$loader" "$libdir" "$bin" >"$dir.tmp/$name"
    chmod +x "$dir.tmp/$name"
  done
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
  echo "$full from Debian $suite's binary packages (${#debs[@]} packages, $((bytes / 1048576)) MiB) in $((SECONDS - t0)) s" >"$dir/BUILD"
  say "$(cat "$dir/BUILD")"
}

build() { # VERSION DIR: from the source package
  local version=$1 dir=$2 work t0=$SECONDS full p need=()
  for p in dpkg-dev autoconf automake libtool pkg-config python3 build-essential; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
  done
  if [ ${#need[@]} -gt 0 ]; then
    $sudo_cmd apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
  fi
  full=$(source_versions | grep -E "^$version-" | tail -1)
  [ -n "$full" ] || die "no openvswitch $version among the source packages ($(source_versions | tr '\n' ' '))"
  work="$cache/src-$version"
  rm -rf "$work"
  mkdir -p "$work"
  say "building Open vSwitch $full from Debian's source package into $dir"
  # shellcheck disable=SC2046
  (cd "$work" && apt-get $(apt_opts src) source --download-only -q "openvswitch=$full" >download.log 2>&1) ||
    die "apt-get source failed: $(tail -3 "$work/download.log")"
  (cd "$work" && dpkg-source -x --no-check ./*.dsc tree >extract.log 2>&1) ||
    die "dpkg-source failed: $(tail -3 "$work/extract.log")"
  (
    cd "$work/tree"
    autoreconf -fi >../build.log 2>&1
    ./configure --disable-ssl --disable-libcapng --enable-silent-rules >>../build.log 2>&1
    # Only the programs, but first the generated headers `make all` would make.
    built=$(printf 'print-built-sources:\n\t@echo $(BUILT_SOURCES)\n' | make -s -f Makefile -f - print-built-sources)
    # shellcheck disable=SC2086
    make -j"$(nproc)" $built >>../build.log 2>&1
    make -j"$(nproc)" ovsdb/ovsdb-server ovsdb/ovsdb-tool ovsdb/ovsdb-client utilities/ovs-appctl >>../build.log 2>&1
  ) || die "build of $full failed: $(tail -5 "$work/build.log")"
  mkdir -p "$dir.tmp"
  cp "$work/tree/ovsdb/ovsdb-server" "$work/tree/ovsdb/ovsdb-tool" "$work/tree/ovsdb/ovsdb-client" \
    "$work/tree/utilities/ovs-appctl" "$dir.tmp/"
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
  echo "$full built from Debian's source package in $((SECONDS - t0)) s" >"$dir/BUILD"
  rm -rf "$work"
  say "$(cat "$dir/BUILD")"
}

cmd_bin() {
  local version=$1 dir s line
  if [ "$version" = "$(system_version)" ]; then
    dir="$cache/system-$version"
    mkdir -p "$dir"
    for p in ovsdb-server ovsdb-tool ovs-appctl ovsdb-client; do ln -sf "$(command -v "$p")" "$dir/$p"; done
    echo "$version from the system's packages" >"$dir/BUILD"
    echo "$dir"
    return
  fi
  dir="$cache/$version/bin"
  line=$(cmd_list | awk -v v="$version" '$1 == v')
  case "$(awk '{print $2}' <<<"$line")" in
    binary)
      s=$(awk '{print $3}' <<<"$line")
      # A cached root is reused while it is the version the index names and its .debs still
      # match the SHA-256 sums they were checked against.
      if [ "$(awk '{print $1}' "$dir/BUILD" 2>/dev/null)" != "$(awk '{print $4}' <<<"$line")" ] ||
        ! sha256sum -c --status "$cache/$version/debs.sha256" 2>/dev/null; then
        unpack "$version" "$s" "$dir"
      fi
      ;;
    source) [ -x "$dir/ovsdb-client" ] || build "$version" "$dir" ;;
    *) die "Open vSwitch $version is not available: ${line:-no suite names it}" ;;
  esac
  "$dir/ovsdb-server" --version | grep -q " $version" || die "$dir/ovsdb-server is not $version"
  echo "$dir"
}

case "${1:-}" in
  list) cmd_list ;;
  bin) [ -n "${2:-}" ] || die "usage: $0 bin VERSION"; cmd_bin "$2" ;;
  *) die "usage: $0 list | bin VERSION" ;;
esac
