#!/usr/bin/env bash
# A clean Debian root file system for the package tests: `debootstrap --variant=minbase DIST`
# once, kept as a tarball under PACKAGE_CACHE (default /var/cache/ovn-raft-exporter/package),
# unpacked afresh into DIR on every run so that each test starts from an untouched system.
#
#   tests/package/rootfs.sh DIST DIR      (DIST: bookworm or trixie)
set -euo pipefail
dist=${1:?usage: rootfs.sh DIST DIR}
dir=${2:?usage: rootfs.sh DIST DIR}
cache=${PACKAGE_CACHE:-/var/cache/ovn-raft-exporter/package}
tarball="$cache/rootfs-$dist.tar"
say() { echo "rootfs: $*" >&2; }
mkdir -p "$cache"
if [ ! -s "$tarball" ]; then
  command -v debootstrap >/dev/null ||
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >&2
  tmp="$cache/rootfs-$dist.tmp"
  rm -rf "$tmp"
  say "debootstrap --variant=minbase $dist (once; cached in $tarball)"
  t0=$SECONDS
  debootstrap --variant=minbase "$dist" "$tmp" http://deb.debian.org/debian >"$cache/debootstrap-$dist.log" 2>&1 ||
    { tail -5 "$cache/debootstrap-$dist.log" >&2; exit 1; }
  rm -rf "$tmp"/var/cache/apt/archives/*.deb
  tar -C "$tmp" -cf "$tarball.part" .
  mv "$tarball.part" "$tarball"
  rm -rf "$tmp"
  say "made in $((SECONDS - t0)) s"
fi
mkdir -p "$dir"
tar -C "$dir" -xf "$tarball"
