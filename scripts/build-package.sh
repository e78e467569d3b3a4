#!/usr/bin/env bash
# Builds the Debian source package (3.0 (quilt): the project's orig tarball, civetweb's two
# pinned tarballs as its orig-civetweb component, debian/), then the binary package from that
# .dsc with the network cut (unshare -n), and writes both into OUTDIR
# (ovn-raft-exporter_VERSION-1.dsc and its tarballs, ovn-raft-exporter_VERSION-1_ARCH.deb). It then
# checks them: lintian reports no error (each remaining tag is explained in docs/package.md),
# each manual page lists the flags its program's --help prints, and the units verify and are
# rated by systemd-analyze. It prints the package's size and dependencies as built.
#
#   scripts/build-package.sh [--install-deps] OUTDIR
#
# What the build needs (dpkg-dev, debhelper, lintian, systemd and debian/control's
# Build-Depends) is only checked: a missing package stops the build with the apt-get line that
# installs it. With --install-deps the script runs that line itself, after printing it.
#
# The package is built with civetweb 1.16 from Debian 13's source, linked statically
# (-DOVN_RAFT_CIVETWEB=source, scripts/build-civetweb.sh, its tarballs taken from the
# component, from the cache or Debian's pool): the exporter's TLS and IPv6 need it,
# and Debian's own libcivetweb has neither working. Built on Debian 12, the package installs on
# Debian 12 and 13 (tests/package/install_test.sh). The source is copied into PACKAGE_WORK
# (default /var/tmp/ovn-raft-exporter-package), a fixed place so that ccache serves the next
# build (the .dsc is unpacked there again); civetweb is built there once. From a git work tree,
# the files git tracks or would track are copied; from an unpacked source tarball (no .git), the
# whole tree but build/ and obj-*/. The revision in the package's changelog is
# OVN_RAFT_REVISION when set, else git's, else "unknown".
set -euo pipefail
install_deps=0
if [ "${1:-}" = --install-deps ]; then install_deps=1; shift; fi
outdir=${1:?usage: build-package.sh [--install-deps] OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${PACKAGE_WORK:-/var/tmp/ovn-raft-exporter-package}
say() { echo "build-package: $*" >&2; }
die() { say "$*"; exit 1; }
t0=$SECONDS

version=$(sed -nE 's/^project\(ovn-raft-exporter VERSION ([0-9.]+).*/\1/p' "$root/CMakeLists.txt")
in_git=0
git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1 && in_git=1
if [ -n "${OVN_RAFT_REVISION:-}" ]; then revision=$OVN_RAFT_REVISION
elif [ $in_git = 1 ]; then revision=$(git -C "$root" rev-parse --short HEAD)
else revision=unknown; fi
when=$( ([ $in_git = 1 ] && git -C "$root" log -1 --format=%cD) || date -R -r "$root/CMakeLists.txt")
[ -n "$version" ] || die "no version in CMakeLists.txt"

# Missing packages: named with the line that installs them, run only with --install-deps.
install_or_tell() { # WHAT PACKAGE...
  local what=$1
  shift
  [ $# -gt 0 ] || return 0
  local line="apt-get install --no-install-recommends $*"
  if [ $install_deps = 0 ]; then
    die "missing $what: $*. Install them with: $line (or pass --install-deps)"
  fi
  say "installing $what: $line"
  apt-get update -q >/dev/null
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null
}
need=()
for tool in dpkg-buildpackage:dpkg-dev dh:debhelper lintian:lintian systemd-analyze:systemd; do
  command -v "${tool%%:*}" >/dev/null || need+=("${tool#*:}")
done
install_or_tell "build tools" "${need[@]}"

src="$work/ovn-raft-exporter-$version"
debian_version=$version-1
rm -rf "$src" "$work"/ovn-raft-exporter_*
mkdir -p "$src" "$outdir"
if [ $in_git = 1 ]; then
  (cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"' |
    tar --null -T - -cf -) | tar -C "$src" -xf -
else
  say "no git work tree at $root: copying the whole tree but build/ and obj-*/"
  tar -C "$root" --exclude=./build --exclude='./obj-*' --exclude=./.git -cf - . | tar -C "$src" -xf -
fi
cat >"$src/debian/changelog" <<CHANGELOG
ovn-raft-exporter ($debian_version) unstable; urgency=medium

  * Built from revision $revision.

 -- ovn-raft-exporter developers <ovn-raft-exporter@users.noreply.github.com>  $when
CHANGELOG

missing=$(cd "$src" && dpkg-checkbuilddeps 2>&1 | sed -n 's/.*Unmet build dependencies: //p' |
  sed -E 's/\([^)]*\)//g; s/\|[^ ]*//g')
# shellcheck disable=SC2086
install_or_tell "build dependencies (debian/control)" $missing

# The source package: the upstream tree without debian/, civetweb's tarballs as the
# orig-civetweb component (unpacked into civetweb/), debian/.
say "source package $debian_version"
bash "$root/scripts/build-civetweb.sh" --download "$src/civetweb" ||
  die "civetweb's tarballs could not be fetched (scripts/build-civetweb.sh --download)"
tar -C "$work" --exclude="ovn-raft-exporter-$version/debian" --exclude="ovn-raft-exporter-$version/civetweb" \
  --sort=name -cJf "$work/ovn-raft-exporter_$version.orig.tar.xz" "ovn-raft-exporter-$version"
tar -C "$src" --sort=name -cJf "$work/ovn-raft-exporter_$version.orig-civetweb.tar.xz" civetweb
(cd "$work" && dpkg-source -b "ovn-raft-exporter-$version") >"$work/source.log" 2>&1 ||
  { cat "$work/source.log"; die "dpkg-source -b failed"; }
dsc="$work/ovn-raft-exporter_$debian_version.dsc"

# The binary package from the .dsc alone, unpacked where the tree was (ccache's base) and built
# with the network cut, as a distribution's builder would.
offline=(unshare -n)
"${offline[@]}" true 2>/dev/null || { offline=(); say "unshare -n is refused (not root?): building with the network"; }
rm -rf "$src"
(cd "$work" && "${offline[@]}" dpkg-source -x "$dsc" "$src") >>"$work/source.log" 2>&1 ||
  { cat "$work/source.log"; die "dpkg-source -x failed"; }
say "dpkg-buildpackage $debian_version (revision $revision) in $src${offline:+, network cut}"
export OVN_RAFT_REVISION=$revision OVN_RAFT_CIVETWEB_PREFIX="${OVN_RAFT_CIVETWEB_PREFIX:-$work/civetweb}"
export DEB_BUILD_OPTIONS="noddebs nocheck ${DEB_BUILD_OPTIONS:-}"
if command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR="$src"
fi
(cd "$src" && "${offline[@]}" dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1 ||
  { tail -40 "$work/build.log"; die "dpkg-buildpackage failed (log: $work/build.log)"; }
deb=$(ls "$work"/ovn-raft-exporter_"$debian_version"_*.deb)

say "lintian"
lintian --info --display-info --pedantic --tag-display-limit 0 "$dsc" "$deb" >"$work/lintian.txt" 2>&1 || true
grep -E '^[EWIP]: ' "$work/lintian.txt" | sort | uniq -c >&2 || true
if grep -q '^E: ' "$work/lintian.txt"; then die "lintian reports errors (see $work/lintian.txt)"; fi

# The manual pages, as packaged, against the packaged programs' --help.
check="$work/check"
rm -rf "$check"
dpkg-deb -x "$deb" "$check"
for program in ovn-raft-exporter ovn-raft-report; do
  bash "$root/tests/package/man_flags_test.sh" "$check/usr/bin/$program" \
    "$check/usr/share/man/man1/$program.1.gz" >&2
done

# The units as installed, alone and with the socket-activation drop-in, verified in a root of the
# package's files, this host's units (the targets they name) and /bin/sh (dash, Essential:
# ExecReload); the service's exposure rated at most 2.5 ("OK").
mkdir -p "$check/bin"
cp -an /lib/systemd/system/. "$check/lib/systemd/system/"
cp -L /bin/sh "$check/bin/sh"
units="$check/lib/systemd/system/ovn-raft-exporter"
MANPATH="$check/usr/share/man" systemd-analyze verify --root="$check" "$units.service" "$units.socket" >&2 ||
  die "systemd-analyze verify fails on the units"
dropin="$check/etc/systemd/system/ovn-raft-exporter.service.d"
mkdir -p "$dropin"
cp "$check/usr/share/ovn-raft-exporter/systemd/socket-activation.conf" "$dropin/"
MANPATH="$check/usr/share/man" systemd-analyze verify --root="$check" "$units.service" "$units.socket" >&2 ||
  die "systemd-analyze verify fails on the units with the socket-activation drop-in"
exposure=$(systemd-analyze security --offline=yes "$units.service" 2>/dev/null | sed -nE 's/.*Overall exposure level.*: ([0-9.]+) .*/\1/p')
say "units: systemd-analyze verify passes (service, socket, socket-activation drop-in); security exposure $exposure"
awk -v e="$exposure" 'BEGIN { exit !(e != "" && e <= 2.5) }' || die "the unit's exposure is ${exposure:-unknown}, above 2.5"

# The figures docs/package.md does not state: as this build made them.
rm -f "$outdir"/ovn-raft-exporter_*
cp "$deb" "$dsc" "$work"/ovn-raft-exporter_"$version".orig*.tar.xz \
  "$work"/ovn-raft-exporter_"$debian_version".debian.tar.xz "$outdir/"
{
  echo "package: $(basename "$deb")"
  echo "size: $(du -k "$deb" | cut -f1) KiB (.deb), $(dpkg-deb -f "$deb" Installed-Size) KiB installed"
  echo "depends: $(dpkg-deb -f "$deb" Depends)"
  echo "built on: $(. /etc/os-release && echo "$PRETTY_NAME"), lintian $(lintian --version | awk '{print $2}'), systemd $(systemd-analyze --version | awk 'NR == 1 {print $2}')"
  echo "unit exposure (systemd-analyze security --offline=yes): $exposure"
  echo "lintian tags: $(grep -E '^[EWIP]: ' "$work/lintian.txt" | awk '{print $1 $3}' | sort | uniq -c | tr -s ' ' | paste -sd, - || true)"
} >"$outdir/package-facts.txt"
sed 's/^/build-package: /' "$outdir/package-facts.txt" >&2
say "wrote $outdir/$(basename "$deb") in $((SECONDS - t0)) s"
