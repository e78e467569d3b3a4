#!/usr/bin/env bash
# The package on a clean Debian: installed with apt-get from Debian's archive, its binary run
# as its systemd unit would run it (the unit's ExecStart, the /etc/default file's ARGS, no
# flag of ours) beside a clustered NB and SB that Debian's own ovn-ctl started, then removed
# and purged.
#
#   tests/package/install_test.sh DIST DEB      (DIST: bookworm or trixie)
#
# The root file system comes from tests/package/rootfs.sh (debootstrap once, cached under
# /var/cache/ovn-raft-exporter/package, unpacked afresh each run); downloaded packages are kept
# in the same cache. No systemd runs in the chroot: the databases and the exporter run in a
# network namespace of their own (loopback only), so no port of this host is taken. Needs root.
set -euo pipefail
dist=${1:?usage: install_test.sh DIST DEB}
deb=$(realpath "${2:?usage: install_test.sh DIST DEB}")
here=$(cd "$(dirname "$0")" && pwd)
cache=${PACKAGE_CACHE:-/var/cache/ovn-raft-exporter/package}
say() { echo "install-test[$dist]: $*" >&2; }
check=0 fail=0
expect() { # NAME STATUS DETAIL
  if [ "$2" -eq 0 ]; then check=$((check + 1)); say "ok: $1"; else fail=$((fail + 1)); say "FAILED: $1: $3"; fi
}
t0=$SECONDS
work=$(mktemp -d /var/tmp/ovn-raft-install.XXXXXX)
root="$work/root"
cleanup() {
  set +e
  for m in "$root/var/cache/apt/archives" "$root/dev/pts" "$root/proc"; do
    mountpoint -q "$m" && umount -l "$m"
  done
  # Anything still running from the chroot (a failed run) is ended by its pid.
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && kill -9 "${p#/proc/}" 2>/dev/null
  done
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
bash "$here/rootfs.sh" "$dist" "$root"
mkdir -p "$cache/archives-$dist/partial"
mount --bind "$cache/archives-$dist" "$root/var/cache/apt/archives"
mount -t proc proc "$root/proc"
mount -t devpts devpts "$root/dev/pts" 2>/dev/null || true
cp /etc/resolv.conf "$root/etc/resolv.conf"
# As in images: no service is started by a package's scripts.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"; }
in_root apt-get update -q >"$work/apt.log" 2>&1 || { tail "$work/apt.log"; exit 1; }
cp "$deb" "$root/tmp/"
rc=0
in_root apt-get install -y -q --no-install-recommends "./tmp/$(basename "$deb")" >>"$work/apt.log" 2>&1 || rc=$?
expect "apt-get install ./$(basename "$deb") pulls its dependencies from Debian $dist" "$rc" "$(tail -5 "$work/apt.log")"
[ "$rc" -eq 0 ] || exit 1
in_root apt-get install -y -q --no-install-recommends ovn-central >>"$work/apt.log" 2>&1 ||
  { tail "$work/apt.log"; exit 1; }
say "Debian $(cat "$root/etc/debian_version"), $(in_root dpkg-query -W -f='${Package} ${Version}' ovn-central)"
unit=$(ls "$root"/{usr/,}lib/systemd/system/ovn-raft-exporter.service 2>/dev/null | head -1)
expect "the unit is installed" "$([ -n "$unit" ]; echo $?)" "no ovn-raft-exporter.service"
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
expect "the defaults file is a conffile" \
  "$(in_root dpkg-query -W -f='${Conffiles}' ovn-raft-exporter | grep -q '/etc/default/ovn-raft-exporter'; echo $?)" \
  "$(in_root dpkg-query -W -f='${Conffiles}' ovn-raft-exporter)"
expect "the package stops its service before removal (prerm)" \
  "$(grep -q 'deb-systemd-invoke stop.*ovn-raft-exporter.service' "$root/var/lib/dpkg/info/ovn-raft-exporter.prerm"; echo $?)" \
  "$(cat "$root/var/lib/dpkg/info/ovn-raft-exporter.prerm" 2>/dev/null)"
for page in ovn-raft-exporter ovn-raft-report; do
  expect "man page $page(1) lists the flags of --help" \
    "$(bash "$here/man_flags_test.sh" "$root/usr/bin/$page" "$root/usr/share/man/man1/$page.1.gz" >"$work/man.log" 2>&1; echo $?)" \
    "$(cat "$work/man.log")"
done
files=$(in_root dpkg-query -L ovn-raft-exporter)

# The databases, started by Debian's ovn-ctl as clustered databases, and the exporter with the
# unit's command and the defaults file, in a network namespace with loopback only.
cat >"$work/run.sh" <<RUN
set -u
ip link set lo up
ctl="chroot $root /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin /usr/share/ovn/scripts/ovn-ctl"
\$ctl --db-nb-cluster-local-addr=127.0.0.1 --db-nb-create-insecure-remote=yes start_nb_ovsdb >&2
\$ctl --db-sb-cluster-local-addr=127.0.0.1 --db-sb-create-insecure-remote=yes start_sb_ovsdb >&2
stat -c 'socket %n %U:%G %A' $root/run/ovn/ovnnb_db.ctl $root/run/ovn/ovnnb_db.sock $root/run/ovn/ovnsb_db.ctl >&2
chroot $root /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin /bin/sh -c \
  'set -a; . /etc/default/ovn-raft-exporter; set +a; eval "exec $exec_start"' >$work/exporter.log 2>&1 &
pid=\$!
for i in \$(seq 150); do
  curl -sf http://127.0.0.1:10476/metrics >$work/metrics.txt 2>/dev/null && grep -q '^ovn_raft_up.*1\$' $work/metrics.txt &&
    [ "\$(grep -c '^ovn_raft_up.* 1\$' $work/metrics.txt)" -ge 2 ] && break
  sleep 0.2
done
curl -sf http://127.0.0.1:10476/status >$work/status.json 2>/dev/null
# As systemctl stop would (SIGTERM to the main process), then the databases.
kill -TERM \$pid; wait \$pid; echo "exporter exit \$?" >>$work/exporter.log
\$ctl stop_nb_ovsdb >&2
\$ctl stop_sb_ovsdb >&2
RUN
unshare --net --fork bash "$work/run.sh" 2>"$work/run.log" || true
grep '^socket' "$work/run.log" >&2 || true
for db in OVN_Northbound OVN_Southbound; do
  expect "ovn_raft_up{db=\"$db\"} 1 with the package's defaults and no flags" \
    "$(grep -q "^ovn_raft_up{db=\"$db\"} 1$" "$work/metrics.txt" 2>/dev/null; echo $?)" \
    "$(grep ovn_raft_up "$work/metrics.txt" 2>/dev/null) $(tail -5 "$work/exporter.log") $(tail -5 "$work/run.log")"
done
grep '^ovn_raft_up' "$work/metrics.txt" >&2 || true
expect "the exporter said where it found the sockets" \
  "$(grep -q 'OVN database sockets found.*dir=/var/run/ovn' "$work/exporter.log"; echo $?)" "$(head -3 "$work/exporter.log")"
expect "/status says where it looked" \
  "$(grep -q '"socket_discovery":{"tried":\["/var/run/ovn"[^]]*\],"found_in":"/var/run/ovn","files_tried":\["/var/lib/ovn"[^]]*\],"files_found_in":"/var/lib/ovn"}' "$work/status.json"; echo $?)" \
  "$(head -c 400 "$work/status.json" 2>/dev/null)"
for db in OVN_Northbound OVN_Southbound; do
  expect "$db's file found in /var/lib/ovn and its size read" \
    "$(grep -q "^ovn_raft_database_file_size_bytes{db=\"$db\"} [1-9]" "$work/metrics.txt"; echo $?)" \
    "$(grep -E 'ovn_raft_database_file|OVN database file' "$work/metrics.txt" "$work/exporter.log")"
done
expect "the exporter stopped on SIGTERM with status 0" "$(grep -q 'exporter exit 0' "$work/exporter.log"; echo $?)" \
  "$(tail -3 "$work/exporter.log")"
running=""
for p in /proc/[0-9]*; do
  [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && running+="$(cat "$p/comm" 2>/dev/null) "
done
expect "nothing runs in the chroot any more" "$([ -z "$running" ]; echo $?)" "$running"

# Remove: only the configuration stays. Purge: nothing stays.
in_root apt-get remove -y -q ovn-raft-exporter >>"$work/apt.log" 2>&1
left=""
while read -r f; do
  [ -z "$f" ] || [ "$f" = /etc/default/ovn-raft-exporter ] && continue
  [ -d "$root$f" ] && continue  # shared directories (/lib is a link to usr/lib): checked below
  [ -f "$root$f" ] || [ -L "$root$f" ] && left+="$f "
done <<<"$files"
for d in /usr/share/ovn-raft-exporter /usr/share/doc/ovn-raft-exporter; do
  [ -e "$root$d" ] && left+="$d "
done
expect "remove leaves no file of the package but its configuration" "$([ -z "$left" ]; echo $?)" "$left"
expect "remove keeps /etc/default/ovn-raft-exporter" "$([ -f "$root/etc/default/ovn-raft-exporter" ]; echo $?)" "gone"
expect "remove leaves no process" "$(! pgrep -f /usr/bin/ovn-raft-exporter >/dev/null; echo $?)" "$(pgrep -af ovn-raft-exporter)"
in_root apt-get purge -y -q ovn-raft-exporter >>"$work/apt.log" 2>&1
expect "purge removes /etc/default/ovn-raft-exporter" "$([ ! -e "$root/etc/default/ovn-raft-exporter" ]; echo $?)" "still there"
leftover=$(find "$root/etc" "$root/usr" "$root/var/lib/systemd" -name '*ovn-raft*' 2>/dev/null | sed "s|^$root||")
expect "purge leaves no file named for the package" "$([ -z "$leftover" ]; echo $?)" "$leftover"
expect "dpkg forgets the package" \
  "$(! in_root dpkg-query -W -f='${Status}' ovn-raft-exporter 2>/dev/null | grep -q installed; echo $?)" \
  "$(in_root dpkg-query -W -f='${Status}' ovn-raft-exporter 2>&1)"
echo "install test on Debian $dist: $check passed, $fail failed, $((SECONDS - t0)) s"
[ "$fail" -eq 0 ]
