#!/usr/bin/env bash
# civetweb 1.16 built from Debian 13's own source package, with Debian's patches (security
# fixes included), OpenSSL 3 linked directly and IPv6 on, as a static library installed under
# PREFIX. Debian 12's libcivetweb (1.15) has no IPv6, and its TLS, and Debian 13's, loads
# OpenSSL's 1.1 API at run time and jumps to address 0 on the first handshake with OpenSSL 3.
# CMake runs this with -DOVN_RAFT_CIVETWEB=source.
#
#   scripts/build-civetweb.sh PREFIX [TARBALLS]   build; TARBALLS: a directory holding the two
#                                                 tarballs (-DOVN_RAFT_CIVETWEB_TARBALLS)
#   scripts/build-civetweb.sh --download DIR      put the two tarballs into DIR, for a build
#                                                 without network elsewhere
#
# The two tarballs are checked against the SHA-256 sums of Debian 13's signed source index
# (apt-cache showsrc civetweb), pinned here. Given TARBALLS, the build takes them from there and
# never touches the network (a missing file is an error that says where to get it); without it,
# they are fetched from Debian's pool once and cached in CIVETWEB_CACHE (default
# /var/cache/ovn-raft-exporter/civetweb). Their .dsc is not served.
set -euo pipefail
usage="usage: build-civetweb.sh PREFIX [TARBALLS] | build-civetweb.sh --download DIR"
version=1.16+dfsg
revision=2+deb13u1
pool=${CIVETWEB_POOL:-http://deb.debian.org/debian/pool/main/c/civetweb}
declare -A sha256=(
  ["civetweb_${version}.orig.tar.xz"]=41dbfd68cd3b914ce440a5813f21058813b61a972600cc04fb8233a0d2d04fe4
  ["civetweb_${version}-${revision}.debian.tar.xz"]=1e5f56ab5592026dc5cd90302cfaa5a66b889f8959440e64dc0e373d18165ebb
)
say() { echo "build-civetweb: $*" >&2; }
matches() { echo "${sha256[$(basename "$1")]}  $1" | sha256sum -c --status 2>/dev/null; }

# fetch FILE DIR: DIR/FILE from the cache when it holds it, else from Debian's pool; checked.
fetch() {
  local file=$1 dir=$2 cache=${CIVETWEB_CACHE:-/var/cache/ovn-raft-exporter/civetweb}
  matches "$dir/$file" && return 0
  if [ "$cache" != "$dir" ] && matches "$cache/$file"; then
    cp "$cache/$file" "$dir/$file"
  else
    say "fetching $file"
    curl -sSfL --retry 3 -o "$dir/$file.part" "$pool/$file"
    mv "$dir/$file.part" "$dir/$file"
  fi
  matches "$dir/$file" || { say "$file does not match its pinned SHA-256"; rm -f "$dir/$file"; exit 1; }
}

if [ "${1:-}" = --download ]; then
  dir=${2:?$usage}
  mkdir -p "$dir"
  for file in "${!sha256[@]}"; do fetch "$file" "$dir"; done
  say "civetweb's tarballs are in $dir; build with -DOVN_RAFT_CIVETWEB_TARBALLS=$(cd "$dir" && pwd)"
  exit 0
fi
prefix=${1:?$usage}
tarballs=${2:-}

if [ -n "$tarballs" ]; then
  bad=0
  for file in "${!sha256[@]}"; do
    if [ ! -f "$tarballs/$file" ]; then
      say "$tarballs/$file is missing ($pool/$file)"
      bad=1
    elif ! matches "$tarballs/$file"; then
      say "$tarballs/$file does not match its pinned SHA-256 ${sha256[$file]}"
      bad=1
    fi
  done
  if [ "$bad" = 1 ]; then
    say "no download with a tarballs directory: fetch them where there is network with"
    say "  scripts/build-civetweb.sh --download $tarballs"
    say "or 'apt-get source --download-only civetweb=$version-$revision' on Debian 13 (deb-src)"
    exit 1
  fi
  source=$tarballs
else
  source=${CIVETWEB_CACHE:-/var/cache/ovn-raft-exporter/civetweb}
  mkdir -p "$source" 2>/dev/null && [ -w "$source" ] || source="$prefix.download"
  mkdir -p "$source"
fi
stamp="$prefix/.built-$version-$revision"
[ -f "$stamp" ] && [ -f "$prefix/lib/libcivetweb.a" ] && exit 0
[ -n "$tarballs" ] || for file in "${!sha256[@]}"; do fetch "$file" "$source"; done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xf "$source/civetweb_${version}.orig.tar.xz" -C "$work" --strip-components=1
tar -xf "$source/civetweb_${version}-${revision}.debian.tar.xz" -C "$work"
while read -r patch; do
  [ -z "$patch" ] || [ "${patch:0:1}" = "#" ] && continue
  patch -d "$work" -p1 -s <"$work/debian/patches/$patch"
done <"$work/debian/patches/series"
cmake -S "$work" -B "$work/_build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib -DBUILD_SHARED_LIBS=OFF \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCIVETWEB_ENABLE_SSL=ON \
  -DCIVETWEB_SSL_OPENSSL_API_3_0=ON -DCIVETWEB_SSL_OPENSSL_API_1_1=OFF \
  -DCIVETWEB_ENABLE_SSL_DYNAMIC_LOADING=OFF -DCIVETWEB_ENABLE_IPV6=ON \
  -DCIVETWEB_BUILD_TESTING=OFF -DCIVETWEB_ENABLE_SERVER_EXECUTABLE=OFF -DCIVETWEB_ENABLE_CXX=OFF \
  -DCIVETWEB_ENABLE_LUA=OFF -DCIVETWEB_ENABLE_DUKTAPE=OFF -DCIVETWEB_ENABLE_WEBSOCKETS=OFF \
  -DCIVETWEB_ENABLE_ASAN=OFF >"$work/cmake.log" 2>&1 || { tail -20 "$work/cmake.log" >&2; exit 1; }
ninja -C "$work/_build" install >"$work/build.log" 2>&1 || { tail -20 "$work/build.log" >&2; exit 1; }
touch "$stamp"
say "civetweb $version-$revision installed in $prefix"
