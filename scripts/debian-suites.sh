#!/usr/bin/env bash
# Shell helpers for taking programs from other Debian suites' binary packages without touching
# the system: private apt configurations (their own sources.list and lists under $cache), so
# that the system's package lists stay Debian 12's, and downloads checked by SHA-256.
# Sourced by scripts/ovs-versions.sh and scripts/monitoring-releases.sh, which set `cache`
# (the directory everything lands in) and define `die`.
#   . "$(dirname "$0")/debian-suites.sh"

mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
arch=$(dpkg --print-architecture)

apt_opts() { # NAME: the options of the private configuration NAME (a suite, or src)
  echo "-o Dir::Etc::sourcelist=$cache/apt-$1/sources.list -o Dir::Etc::sourceparts=/nonexistent" \
    "-o Dir::State::Lists=$cache/apt-$1/lists -o Dir::Cache=$cache/apt-$1" \
    "-o Dir::State::status=/dev/null -o APT::Architecture=$arch -o APT::Architectures::=$arch"
}
# shellcheck disable=SC2046
apt_cache() { local n=$1; shift; apt-cache $(apt_opts "$n") "$@"; }

index() { # NAME LINE...: a private index with those sources.list lines, refreshed once a day
  local name=$1 dir="$cache/apt-$1"
  shift
  mkdir -p "$dir/lists/partial" "$dir/archives/partial"
  printf '%s\n' "$@" >"$dir/sources.list.new"
  if ! cmp -s "$dir/sources.list.new" "$dir/sources.list" ||
    [ -z "$(find "$dir/lists" -name '*_InRelease' -mtime -1 2>/dev/null | head -1)" ]; then
    mv "$dir/sources.list.new" "$dir/sources.list"
    # apt-get checks each index against its suite's signed Release file: the SHA-256 sums it
    # gives are what every download is checked against.
    # shellcheck disable=SC2046
    apt-get $(apt_opts "$name") update -q >"$dir/update.log" 2>&1 ||
      die "cannot read the $name index: $(tail -3 "$dir/update.log")"
  fi
  rm -f "$dir/sources.list.new"
}
suite_index() { index "$1" "deb $mirror $1 main"; } # SUITE

# download_checked FILENAME SHA256: the mirror's FILENAME (a pool path) in $cache/debs, checked
# against SHA256 when downloaded and again when a cached copy is reused; prints its path.
# Returns 1 (with nothing printed) when the mirror no longer serves it.
download_checked() {
  local file=$1 sum=$2 path
  path="$cache/debs/${file##*/}"
  mkdir -p "$cache/debs"
  if [ -f "$path" ] && echo "$sum  $path" | sha256sum -c --status; then
    echo "$path"
    return
  fi
  curl -sSf --retry 3 -o "$path.part" "$mirror/$file" 2>/dev/null || { rm -f "$path.part"; return 1; }
  echo "$sum  $path.part" | sha256sum -c --status ||
    die "$file does not match its SHA-256 ($sum); removed"
  mv "$path.part" "$path"
  echo "$path"
}

# package_fields SUITE PACKAGE: "VERSION FILENAME SHA256" of the package the suite's index names
package_fields() {
  local info
  info=$(apt_cache "$1" show --no-all-versions "$2" 2>/dev/null) || return 1
  printf '%s %s %s\n' "$(sed -nE 's/^Version: //p' <<<"$info" | head -1)" \
    "$(sed -nE 's/^Filename: //p' <<<"$info" | head -1)" "$(sed -nE 's/^SHA256: //p' <<<"$info" | head -1)"
}

fetch_deb() { # SUITE PACKAGE: a checked copy of the suite's current .deb of PACKAGE; prints its path
  local version file sum
  read -r version file sum < <(package_fields "$1" "$2") || die "no $2 in $1's index"
  [ -n "$file" ] && [ -n "$sum" ] || die "$2 has no file or SHA-256 in $1's index"
  download_checked "$file" "$sum" || die "cannot download $mirror/$file"
}
