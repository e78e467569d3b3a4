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
# in the same cache. First in a chroot, without systemd: the databases and the exporter run in a
# network namespace of their own (loopback only), so no port of this host is taken. Then the
# same root is booted with systemd-nspawn (systemd-container; its own network namespace too):
# the unit as the package enabled it, its sandbox (a probe unit made of its settings connects to
# every socket of the booted system), ExecReload without procps, ARGS quoting, a late address,
# socket activation. BOOT_TEST=0 skips that part. Needs root.
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
nspawn=""
cleanup() {
  set +e
  [ -n "$nspawn" ] && kill "$nspawn" 2>/dev/null && sleep 2
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
if [ "${BOOT_TEST:-1}" = 1 ] && ! command -v systemd-nspawn >/dev/null; then
  say "installing systemd-container (systemd-nspawn, for the boot test)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends systemd-container >&2
fi
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

# The package under systemd: the same root booted with systemd-nspawn (systemd as its PID 1,
# a network namespace of its own with loopback only), its database units from ovn-central and
# the exporter's unit as the package enabled it.
boot_test() {
  for m in "$root/var/cache/apt/archives" "$root/dev/pts" "$root/proc"; do
    mountpoint -q "$m" && umount "$m"
  done
  mount --bind "$cache/archives-$dist" "$root/var/cache/apt/archives"
  # systemd, D-Bus and Open vSwitch, whose sockets the sandbox must hide.
  in_root apt-get install -y -q --no-install-recommends systemd systemd-sysv dbus openvswitch-switch >>"$work/apt.log" 2>&1 ||
    { tail "$work/apt.log"; return 1; }
  umount "$root/var/cache/apt/archives"
  rm -f "$root/usr/sbin/policy-rc.d"
  # Debian's database units run ovn-ctl with OVN_CTL_OPTS: the clustered databases made above.
  echo 'OVN_CTL_OPTS="--db-nb-cluster-local-addr=127.0.0.1 --db-sb-cluster-local-addr=127.0.0.1 --db-nb-create-insecure-remote=yes --db-sb-create-insecure-remote=yes"' \
    >>"$root/etc/default/ovn-central"
  install -m 0755 "$here/socket_probe.pl" "$root/usr/local/bin/socket-probe"
  # nspawn keeps its state under /run/systemd/nspawn and refuses to clean it off a disk file
  # system: a tmpfs of its own there, in a mount namespace of its own.
  unshare --mount --propagation private sh -c 'mkdir -p /run/systemd/nspawn && mount -t tmpfs tmpfs /run/systemd/nspawn &&
    exec systemd-nspawn --quiet --keep-unit --register=no --private-network --console=read-only -D "$1" --boot' \
    sh "$root" >"$work/boot.log" 2>&1 </dev/null &
  nspawn=$!
  leader=""
  for _ in $(seq 100); do
    leader=$(ps -o pid= --ppid "$nspawn" 2>/dev/null | head -1 | tr -d ' ')
    [ -n "$leader" ] && in_boot true 2>/dev/null && break
    sleep 0.2
  done
  [ -n "$leader" ] || { tail "$work/boot.log"; return 1; }
  # systemctl answers once PID 1 has its private socket.
  for _ in $(seq 150); do in_boot test -S /run/systemd/private 2>/dev/null && break; sleep 0.2; done
  state=$(in_boot timeout 120 systemctl is-system-running --wait 2>&1 || true)
  expect "systemd boots the root (system state: $state)" "$([ "$state" = running ] || [ "$state" = degraded ]; echo $?)" \
    "$(in_boot systemctl --failed --no-legend 2>&1) $(tail -5 "$work/boot.log")"
  say "booted: $(in_boot systemctl --version | head -1), $(in_boot systemctl --failed --no-legend | wc -l) failed unit(s)"
  expect "the service is enabled and started at boot" \
    "$([ "$(in_boot systemctl is-enabled ovn-raft-exporter.service)" = enabled ] && in_boot systemctl is-active -q ovn-raft-exporter.service; echo $?)" \
    "$(in_boot systemctl status --no-pager ovn-raft-exporter.service 2>&1 | tail -8)"
  expect "the socket unit is installed, not enabled" \
    "$([ "$(in_boot systemctl is-enabled ovn-raft-exporter.socket)" = disabled ]; echo $?)" \
    "$(in_boot systemctl is-enabled ovn-raft-exporter.socket 2>&1)"
  scrape metrics-boot.txt http://127.0.0.1:10476/metrics
  for db in OVN_Northbound OVN_Southbound; do
    expect "under the unit's sandbox, ovn_raft_up{db=\"$db\"} 1" \
      "$(grep -q "^ovn_raft_up{db=\"$db\"} 1$" "$work/metrics-boot.txt"; echo $?)" \
      "$(grep ovn_raft_up "$work/metrics-boot.txt") $(in_boot journalctl -u ovn-raft-exporter --no-pager | tail -5)"
    expect "under the unit's sandbox, $db's file size is read" \
      "$(grep -q "^ovn_raft_database_file_size_bytes{db=\"$db\"} [1-9]" "$work/metrics-boot.txt"; echo $?)" \
      "$(grep ovn_raft_database_file "$work/metrics-boot.txt")"
  done
  # procps comes with Open vSwitch here: its kill is moved away while the unit reloads.
  kill_bin=$(realpath -e "$root/bin/kill" 2>/dev/null || true)
  [ -z "$kill_bin" ] || mv "$kill_bin" "$kill_bin.away"
  expect "systemctl reload with no /bin/kill (ExecReload's kill is the shell's)" \
    "$(! in_boot test -e /bin/kill &&
      in_boot systemctl reload ovn-raft-exporter.service &&
      sleep 0.5 && in_boot journalctl -u ovn-raft-exporter --no-pager | grep -q 'SIGHUP'; echo $?)" \
    "$(in_boot journalctl -u ovn-raft-exporter --no-pager | tail -3)"
  [ -z "$kill_bin" ] || mv "$kill_bin.away" "$kill_bin"

  # The sandbox: every unix socket of the booted system, listed from outside the sandbox, then
  # connected to from inside a unit made of the service's own [Service] settings (its command
  # replaced by the probe). Only the OVN run directory's may connect.
  in_boot sh -c "find / \( -path /proc -o -path /sys \) -prune -o -type s -print >/usr/local/share/sockets.txt"
  sed -e '/^\(ExecStart\|ExecReload\|Restart\|RestartSec\|RestartPreventExitStatus\)=/d' \
    -e 's|^\[Service\]|[Service]\nType=oneshot\nExecStart=/usr/local/bin/socket-probe\nStandardInput=file:/usr/local/share/sockets.txt\nStandardOutput=file:/root/probe.txt|' \
    "$root/lib/systemd/system/ovn-raft-exporter.service" >"$root/etc/systemd/system/ovn-raft-probe.service"
  in_boot systemctl daemon-reload
  in_boot systemctl start ovn-raft-probe.service
  sed 's/^/  probe: /' "$root/root/probe.txt" >&2 || true
  expect "the probe tried every socket ($(wc -l <"$root/usr/local/share/sockets.txt"))" \
    "$([ -s "$root/root/probe.txt" ] && [ "$(wc -l <"$root/root/probe.txt")" = "$(wc -l <"$root/usr/local/share/sockets.txt")" ]; echo $?)" \
    "$(in_boot systemctl status --no-pager ovn-raft-probe.service 2>&1 | tail -5)"
  outside=$(grep '^connected ' "$root/root/probe.txt" | grep -v '^connected /run/ovn/' || true)
  expect "inside the sandbox, no socket outside /run/ovn connects" "$([ -z "$outside" ]; echo $?)" "$outside"
  for s in /run/systemd/private /run/dbus/system_bus_socket /run/systemd/notify /run/systemd/journal/socket \
    /run/openvswitch/db.sock $(grep -o '/run/openvswitch/ovs-vswitchd\.[0-9]*\.ctl' "$root/usr/local/share/sockets.txt"); do
    expect "inside the sandbox, $s (there outside it) does not connect" \
      "$(grep -qx "refused $s: No such file or directory" "$root/root/probe.txt"; echo $?)" "$(grep " $s" "$root/root/probe.txt")"
  done
  for s in ovnnb_db.ctl ovnsb_db.ctl ovnnb_db.sock ovnsb_db.sock; do
    expect "inside the sandbox, /run/ovn/$s connects" "$(grep -qx "connected /run/ovn/$s" "$root/root/probe.txt"; echo $?)" \
      "$(grep "$s" "$root/root/probe.txt")"
  done
  exposure=$(in_boot systemd-analyze security ovn-raft-exporter.service 2>/dev/null | sed -nE 's/.*Overall exposure level.*: ([0-9.]+) .*/\1/p')
  say "systemd-analyze security ovn-raft-exporter.service (the running unit): ${exposure:-?}"

  # ARGS: systemd splits it at spaces outside quotes. Quoted inside ARGS, a value with spaces is one
  # flag; unquoted, the start stops on exit status 2, and the unit does not restart it.
  defaults="$root/etc/default/ovn-raft-exporter"
  cp "$defaults" "$work/defaults.orig"
  echo "ARGS=\"--cluster.expected-hosts='127.0.0.1 127.0.0.2 127.0.0.3'\"" >>"$defaults"
  in_boot systemctl restart ovn-raft-exporter.service
  scrape metrics-args.txt http://127.0.0.1:10476/metrics
  expect "ARGS=\"--cluster.expected-hosts='A B C'\" gives three expected hosts" \
    "$([ "$(grep -c '^ovn_raft_expected_host_info{db="OVN_Northbound"' "$work/metrics-args.txt")" = 3 ]; echo $?)" \
    "$(grep expected_host "$work/metrics-args.txt") $(in_boot journalctl -u ovn-raft-exporter --no-pager | tail -3)"
  cp "$work/defaults.orig" "$defaults"
  echo 'ARGS="--cluster.expected-hosts=127.0.0.1 127.0.0.2"' >>"$defaults"
  in_boot systemctl restart ovn-raft-exporter.service || true
  sleep 1
  shown=$(in_boot systemctl show -p ActiveState -p ExecMainStatus -p NRestarts ovn-raft-exporter.service | sort | paste -sd' ')
  expect "unquoted spaces in ARGS: exit status 2, no restart ($shown)" \
    "$([ "$shown" = "ActiveState=failed ExecMainStatus=2 NRestarts=0" ]; echo $?)" \
    "$(in_boot journalctl -u ovn-raft-exporter --no-pager | tail -4)"

  # An address not yet up: the exporter exits, the unit tries again, and serves once it is there.
  cp "$work/defaults.orig" "$defaults"
  echo 'ARGS="--web.listen-address=10.111.0.1:10476"' >>"$defaults"
  in_boot systemctl reset-failed ovn-raft-exporter.service
  in_boot systemctl restart ovn-raft-exporter.service || true
  sleep 12
  before=$(in_boot systemctl show -p NRestarts --value ovn-raft-exporter.service)
  nsenter -t "$leader" -n ip addr add 10.111.0.1/32 dev lo
  scrape metrics-late.txt http://10.111.0.1:10476/metrics
  expect "an address up late is served, the unit not failed (restarts before: $before)" \
    "$([ "${before:-0}" -ge 2 ] && grep -q '^ovn_raft_up' "$work/metrics-late.txt" &&
      in_boot systemctl is-active -q ovn-raft-exporter.service; echo $?)" \
    "$(in_boot systemctl status --no-pager ovn-raft-exporter.service | tail -5)"
  cp "$work/defaults.orig" "$defaults"

  # Socket activation: systemd holds the port and passes it (LISTEN_FDS) to --web.systemd-socket.
  if in_root /usr/bin/ovn-raft-exporter --help | grep -c -- '--web.systemd-socket' >/dev/null; then
    mkdir -p "$root/etc/systemd/system/ovn-raft-exporter.service.d"
    cp "$root/usr/share/ovn-raft-exporter/systemd/socket-activation.conf" "$root/etc/systemd/system/ovn-raft-exporter.service.d/"
    in_boot systemctl daemon-reload
    in_boot systemctl stop ovn-raft-exporter.service
    in_boot systemctl enable --now ovn-raft-exporter.socket 2>/dev/null
    in_boot systemctl start ovn-raft-exporter.service
    scrape metrics-socket.txt http://127.0.0.1:10476/metrics
    expect "socket activation: the service serves on the socket unit's port" \
      "$(grep -q '^ovn_raft_up{db="OVN_Northbound"} 1$' "$work/metrics-socket.txt" &&
        in_boot systemctl show -p TriggeredBy --value ovn-raft-exporter.service | grep -q ovn-raft-exporter.socket; echo $?)" \
      "$(in_boot journalctl -u ovn-raft-exporter --no-pager | tail -4)"
    # After a reboot the socket comes first and the service takes it.
    in_boot systemctl stop ovn-raft-exporter.service
    scrape metrics-socket2.txt http://127.0.0.1:10476/metrics
    expect "socket activation: a connection starts the stopped service" \
      "$(grep -q '^ovn_raft_up' "$work/metrics-socket2.txt"; echo $?)" "$(in_boot systemctl status --no-pager ovn-raft-exporter.service | tail -4)"
    in_boot systemctl disable --now ovn-raft-exporter.socket 2>/dev/null
    rm -r "$root/etc/systemd/system/ovn-raft-exporter.service.d"
  else
    say "NOT RUN: socket activation (this build's exporter has no --web.systemd-socket)"
  fi

  in_boot systemctl poweroff || true
  for _ in $(seq 100); do kill -0 "$nspawn" 2>/dev/null || break; sleep 0.2; done
  kill "$nspawn" 2>/dev/null || true
  wait "$nspawn" 2>/dev/null || true
  rm -f "$root/etc/systemd/system/ovn-raft-probe.service" "$root/root/probe.txt" "$root/usr/local/share/sockets.txt"
  mount -t proc proc "$root/proc"
}
in_boot() { nsenter -t "$leader" -a /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
scrape() { # FILE URL: until it answers, at most 15 s
  for _ in $(seq 75); do curl_in_boot -sf "$2" >"$work/$1" 2>/dev/null && break; sleep 0.2; done
}
curl_in_boot() { nsenter -t "$leader" -n curl "$@"; }
if [ "${BOOT_TEST:-1}" = 1 ]; then
  boot_test || expect "the boot test ran to its end" 1 "$(tail -5 "$work/boot.log")"
fi

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
