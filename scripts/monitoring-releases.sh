#!/usr/bin/env bash
# The Prometheus, Alertmanager and VictoriaMetrics releases the tests run the rules on: Debian
# 12's own (the system packages, the oldest kept) and the newer ones of Debian 13 (trixie) and
# unstable (sid), pinned in scripts/monitoring-releases.lock. They are Go programs that need
# only the C library (and libzstd for VictoriaMetrics), so each is unpacked from its .deb into
# a cache and run from there: nothing is installed on the system.
#
#   scripts/monitoring-releases.sh list           every release, one a line: "NAME SOURCE VERSION"
#   scripts/monitoring-releases.sh bin NAME       a directory holding that release's programs
#                                                 (prometheus and promtool; prometheus-alertmanager
#                                                 and amtool; victoria-metrics, vmagent, vmalert
#                                                 and vmalert-tool), fetched when missing. NAME is
#                                                 a release (prometheus-2.42, prometheus-3.5, ...)
#                                                 or a family (prometheus, alertmanager,
#                                                 victoriametrics: its newest release)
#   scripts/monitoring-releases.sh lock           rewrites the pins from the suites' indexes
#
# Every .deb is checked against the SHA-256 of the lock when it is downloaded and again when a
# cached copy is reused. A suite moves on and its mirror drops superseded files: when a pinned
# file is no longer served, the suite's current package of the same upstream release is taken
# instead, checked against the suite's signed index, and a warning says so. MONITORING_CACHE
# overrides the cache (default /var/cache/ovn-raft-exporter/monitoring); with
# MONITORING_NO_FETCH=1, `bin` fails instead of fetching a release that is not cached.
set -euo pipefail
cache=${MONITORING_CACHE:-/var/cache/ovn-raft-exporter/monitoring}
lock=$(dirname "$0")/monitoring-releases.lock
say() { echo "monitoring-releases: $*" >&2; }
die() { say "$*"; exit 1; }
# shellcheck source=debian-suites.sh
. "$(dirname "$0")/debian-suites.sh"

pins() { grep -vE '^[[:space:]]*(#|$)' "$lock"; } # RELEASE SUITE PACKAGE VERSION SHA256 FILE
upstream_minor() { sed -E 's/^([0-9]+\.[0-9]+).*/\1/'; } # "3.5.3+ds1-6" -> "3.5"

# The system's releases: the Debian 12 packages scripts/install-deps.sh installs.
system_release() { # FAMILY -> "NAME VERSION", or nothing when the package is not installed
  local pkg v
  case $1 in
    prometheus) pkg=prometheus ;;
    alertmanager) pkg=prometheus-alertmanager ;;
    *) return 0 ;;
  esac
  v=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) || return 0
  [ -n "$v" ] && echo "$1-$(upstream_minor <<<"$v") $v"
}
system_programs() { # FAMILY: the programs of the system's release
  case $1 in
    prometheus) echo prometheus promtool ;;
    alertmanager) echo prometheus-alertmanager amtool ;;
  esac
}

cmd_list() {
  local f
  for f in prometheus alertmanager; do
    system_release "$f" | awk '{print $1, "system", $2}'
  done
  pins | awk '!seen[$1]++ {print $1, $2, $4}'
}

resolve() { # NAME: the release a name stands for (a family: its newest, pinned or system)
  local name=$1
  if cmd_list | awk -v n="$name" '$1 == n {found = 1} END {exit !found}'; then
    echo "$name"
    return
  fi
  cmd_list | awk -v f="$name" 'index($1, f "-") == 1 {print $1}' | sort -t- -k2 -V | tail -1 | grep . ||
    die "no release named $name (scripts/monitoring-releases.sh list)"
}

# The .deb of one pin: the pinned file where the mirror serves it, else the suite's current
# package of the same upstream release.
pinned_deb() { # RELEASE SUITE PACKAGE VERSION SHA256 FILE
  local release=$1 suite=$2 pkg=$3 version=$4 sum=$5 file=$6 now nfile nsum
  if [ "$arch" = amd64 ] && download_checked "$file" "$sum"; then return; fi
  suite_index "$suite"
  read -r now nfile nsum < <(package_fields "$suite" "$pkg") || die "no $pkg in $suite's index"
  [ "$(upstream_minor <<<"$now")" = "${release##*-}" ] ||
    die "$suite no longer has $release's $pkg (it has $now): pin another release in $lock"
  [ "$arch" != amd64 ] || say "the pinned $pkg $version is no longer served; taking $now from $suite's signed index (scripts/monitoring-releases.sh lock updates the pin)"
  download_checked "$nfile" "$nsum" || die "cannot download $mirror/$nfile"
}

unpack() { # RELEASE DIR: the release's programs, unpacked and checked, in DIR
  local release=$1 dir=$2 t0=$SECONDS root="$cache/$1/root" debs=() p built=""
  local r suite pkg version sum file
  while read -r r suite pkg version sum file; do
    [ "$r" = "$release" ] || continue
    debs+=("$(pinned_deb "$r" "$suite" "$pkg" "$version" "$sum" "$file")")
  done < <(pins)
  [ ${#debs[@]} -gt 0 ] || die "no pin for $release in $lock"
  rm -rf "$root" "$dir.tmp"
  mkdir -p "$root" "$dir.tmp"
  for p in "${debs[@]}"; do
    dpkg-deb -x "$p" "$root"
    built+="$(dpkg-deb -f "$p" Package)=$(dpkg-deb -f "$p" Version) "
  done
  for p in "$root"/usr/bin/*; do
    # Resolving every symbol at start proves that Debian 12's libraries serve the program.
    LD_BIND_NOW=1 "$p" --help >/dev/null 2>&1 || die "${p##*/} of $release does not run here"
    ln -s "$p" "$dir.tmp/${p##*/}"
  done
  sha256sum "${debs[@]}" >"$dir.tmp/debs.sha256"
  echo "$built" >"$dir.tmp/BUILD"
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
  say "$release: ${built% } unpacked in $((SECONDS - t0)) s"
}

cmd_bin() {
  local release family dir want
  release=$(resolve "$1")
  family=${release%-*}
  if system_release "$family" | grep -q "^$release "; then
    dir="$cache/system/$release"
    mkdir -p "$dir"
    for p in $(system_programs "$family"); do ln -sf "$(command -v "$p")" "$dir/$p"; done
    echo "$dir"
    return
  fi
  dir="$cache/$release/bin"
  # A cached unpack is reused while its packages are the pinned ones and still match their sums.
  want=$(pins | awk -v r="$release" '$1 == r {printf "%s=%s ", $3, $4}')
  if [ "$(cat "$dir/BUILD" 2>/dev/null)" != "$want" ] || ! sha256sum -c --status "$dir/debs.sha256" 2>/dev/null; then
    [ "${MONITORING_NO_FETCH:-0}" = 0 ] || die "$release is not cached"
    unpack "$release" "$dir"
  fi
  echo "$dir"
}

cmd_lock() {
  local r suite pkg version sum file now nfile nsum out
  out=$(mktemp)
  grep -E '^[[:space:]]*(#|$)' "$lock" >"$out"
  while read -r r suite pkg version sum file; do
    suite_index "$suite"
    read -r now nfile nsum < <(package_fields "$suite" "$pkg") || die "no $pkg in $suite's index"
    [ "$now" = "$version" ] || say "$r: $pkg $version -> $now"
    printf '%-23s %-7s %-24s %-16s %s %s\n' "$r" "$suite" "$pkg" "$now" "$nsum" "$nfile" >>"$out"
  done < <(pins)
  mv "$out" "$lock"
}

case "${1:-}" in
  list) cmd_list ;;
  bin) [ -n "${2:-}" ] || die "usage: $0 bin NAME"; cmd_bin "$2" ;;
  lock) cmd_lock ;;
  *) die "usage: $0 list | bin NAME | lock" ;;
esac
