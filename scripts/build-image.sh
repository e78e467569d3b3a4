#!/usr/bin/env bash
# Builds the Dockerfile into an OCI image without a Docker daemon, then runs the image's binary
# against a real 3-member cluster's sockets and scrapes it.
#
#   scripts/build-image.sh [build|test|all]    (default all)
#
# The base images are made here from Debian's own packages: `debootstrap --variant=minbase
# trixie` becomes localhost/debian:13, and the same with documentation and locales removed
# (as Debian's -slim images do) becomes localhost/debian:13-slim, so `FROM debian:13` builds
# from Debian 13 (the image's release: see the Dockerfile) without pulling from a registry. `buildah bud --isolation chroot` builds the
# Dockerfile. Everything lives under IMAGE_CACHE (default /var/cache/ovn-raft-exporter/image),
# outside the source tree, reused by later runs. Prints the build time and the image size.
# Export the image with: buildah --root IMAGE_CACHE/storage ... push IMAGE oci-archive:FILE
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mode=${1:-all}
cache=${IMAGE_CACHE:-/var/cache/ovn-raft-exporter/image}
version=$(sed -nE 's/^project\(ovn-raft-exporter VERSION ([0-9.]+).*/\1/p' CMakeLists.txt)
revision=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
image=${IMAGE:-localhost/ovn-raft-exporter:$version}
say() { echo "build-image: $*" >&2; }
die() { say "$*"; exit 1; }

sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
need=()
for p in buildah debootstrap; do command -v "$p" >/dev/null || need+=("$p"); done
if [ ${#need[@]} -gt 0 ]; then
  say "installing ${need[*]}"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${need[@]}"
fi
# buildah needs root here (chroot isolation without user namespaces); vfs storage works on any
# file system, overlay does not inside every sandbox.
[ -z "$sudo_cmd" ] || exec sudo -E "$0" "$@"
mkdir -p "$cache"
bah=(buildah --root "$cache/storage" --runroot "$cache/run" --storage-driver vfs)

has_image() { "${bah[@]}" inspect --type image "$1" >/dev/null 2>&1; }

import_rootfs() { # DIR NAME: commit a directory tree as an image
  local ctr mnt
  ctr=$("${bah[@]}" from scratch)
  mnt=$("${bah[@]}" mount "$ctr")
  cp -a "$1/." "$mnt/"
  "${bah[@]}" config --cmd /bin/bash \
    --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$ctr"
  "${bah[@]}" umount "$ctr" >/dev/null
  "${bah[@]}" commit --rm --quiet "$ctr" "$2" >/dev/null
}

base_images() {
  has_image localhost/debian:13 && has_image localhost/debian:13-slim && return 0
  local rootfs="$cache/rootfs-trixie" slim="$cache/rootfs-trixie-slim" t0=$SECONDS
  if [ ! -x "$rootfs/bin/bash" ]; then
    rm -rf "$rootfs"
    say "debootstrap trixie (minbase)"
    debootstrap --variant=minbase trixie "$rootfs" http://deb.debian.org/debian >"$cache/debootstrap.log" 2>&1 ||
      die "debootstrap failed: $(tail -5 "$cache/debootstrap.log")"
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  fi
  rm -rf "$slim"
  cp -a "$rootfs" "$slim"
  rm -rf "$slim"/usr/share/doc/* "$slim"/usr/share/man/* "$slim"/usr/share/info/* "$slim"/usr/share/locale/*
  # As in Debian's slim images: later package installs leave these out too.
  printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
    'path-exclude /usr/share/man/*' 'path-exclude /usr/share/info/*' 'path-exclude /usr/share/locale/*' \
    >"$slim/etc/dpkg/dpkg.cfg.d/docker-slim"
  import_rootfs "$rootfs" localhost/debian:13
  import_rootfs "$slim" localhost/debian:13-slim
  rm -rf "$slim"
  say "base images localhost/debian:13 and localhost/debian:13-slim made in $((SECONDS - t0)) s"
}

build() {
  base_images
  local t0=$SECONDS
  say "buildah bud $image (revision $revision)"
  "${bah[@]}" bud --isolation chroot --pull=never --layers --quiet \
    --build-arg VERSION="$version" --build-arg REVISION="$revision" -t "$image" . >"$cache/build.log" 2>&1 ||
    { tail -40 "$cache/build.log"; die "buildah bud failed"; }
  say "built $image in $((SECONDS - t0)) s: $("${bah[@]}" images --format '{{.Size}}' "$image")"
}

# Runs the image's binary beside a real cluster, as Kubernetes would with the Components:
# the sockets' directory mounted read-only, the sockets' owner as the user, the host network.
smoke_test() {
  has_image "$image" || die "no image $image: run '$0 build' first"
  # Ports of a block of its own (lib.sh), so that it runs beside the other tests.
  # shellcheck source=lib.sh
  . scripts/lib.sh
  claim_ports
  local port=${IMAGE_TEST_PORT:-$(free_port 1)} raft_port=${IMAGE_TEST_RAFT_PORT:-$(free_port 2)}
  work=$(mktemp -d) ctr="" pid="" # globals: the EXIT trap uses them after this function returns
  cleanup() {
    set +e
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    [ -n "$ctr" ] && "${bah[@]}" rm "$ctr" >/dev/null 2>&1
    bash scripts/raft-cluster.sh stop "$work/cluster" >/dev/null 2>&1
    [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
  }
  trap cleanup EXIT
  bash scripts/raft-cluster.sh start "$work/cluster" 3 "$raft_port" >/dev/null
  bash scripts/raft-cluster.sh wait "$work/cluster" >/dev/null
  ctr=$("${bah[@]}" from --pull=never "$image")
  local check=0 fail=0
  expect() { # NAME CONDITION-EXIT-CODE DETAIL
    if [ "$2" -eq 0 ]; then check=$((check + 1)); say "ok: $1"; else fail=$((fail + 1)); say "FAILED: $1: $3"; fi
  }
  local user out
  user=$("${bah[@]}" inspect --type image --format '{{.OCIv1.Config.User}}' "$image")
  expect "image runs as a non-root user by default ($user)" "$([ "$user" != "" ] && [ "$user" != 0 ]; echo $?)" "user '$user'"
  local label
  for label in "version=$version" "revision=$revision" "title=ovn-raft-exporter" "licenses=Apache-2.0"; do
    out=$("${bah[@]}" inspect --type image --format \
      "{{index .OCIv1.Config.Labels \"org.opencontainers.image.${label%%=*}\"}}" "$image" 2>&1) || true
    expect "OCI label org.opencontainers.image.$label" "$([ "$out" = "${label#*=}" ]; echo $?)" "'$out'"
  done
  out=$("${bah[@]}" run --isolation chroot "$ctr" -- id -u 2>&1) || true
  expect "default user inside the image is 65532" "$([ "$out" = 65532 ]; echo $?)" "$out"
  out=$("${bah[@]}" run --isolation chroot "$ctr" -- /usr/local/bin/ovn-raft-exporter --version 2>&1) || true
  expect "--version names $version and $revision" "$(grep -q "$version.*$revision" <<<"$out"; echo $?)" "$out"
  out=$("${bah[@]}" run --isolation chroot --user 0:0 "$ctr" -- sh -c \
    'ldd /usr/local/bin/ovn-raft-exporter' 2>&1) || true
  expect "every shared library resolves inside the image" "$(! grep -q "not found" <<<"$out"; echo $?)" "$out"

  # /var/run is a link to /run in Debian, and buildah's chroot mounts a tmpfs on /run after the
  # volumes: mount where the link leads, as runc does for /var/run/ovn in a pod.
  "${bah[@]}" run --isolation chroot --user 0:0 -v "$work/cluster/m1:/run/ovn:ro" "$ctr" -- \
    /usr/local/bin/ovn-raft-exporter --web.listen-address="127.0.0.1:$port" \
    --ovsdb.database=OVN_Northbound=/var/run/ovn/nb.ctl,/var/run/ovn/nb.sock \
    --ovsdb.database=OVN_Southbound=/var/run/ovn/sb.ctl,/var/run/ovn/sb.sock >"$work/exporter.log" 2>&1 &
  pid=$!
  local metrics="" i
  for i in $(seq 100); do
    metrics=$(curl -sf "http://127.0.0.1:$port/metrics" 2>/dev/null) && break
    sleep 0.1
  done
  expect "the image's exporter answers /metrics" "$([ -n "$metrics" ]; echo $?)" "$(tail -5 "$work/exporter.log")"
  for db in OVN_Northbound OVN_Southbound; do
    expect "ovn_raft_up{db=\"$db\"} 1" "$(grep -q "^ovn_raft_up{db=\"$db\"} 1" <<<"$metrics"; echo $?)" \
      "$(grep ovn_raft_up <<<"$metrics")"
    expect "$db: 3 members in view" "$(grep -q "^ovn_raft_members{db=\"$db\"} 3" <<<"$metrics"; echo $?)" \
      "$(grep '^ovn_raft_members' <<<"$metrics")"
  done
  expect "build_info carries $version and $revision" \
    "$(grep -q "ovn_raft_exporter_build_info{.*revision=\"$revision\".*version=\"$version\"\|ovn_raft_exporter_build_info{.*version=\"$version\".*revision=\"$revision\"" <<<"$metrics"; echo $?)" \
    "$(grep build_info <<<"$metrics")"
  local rc=0
  out=$("${bah[@]}" run --isolation chroot "$ctr" -- /usr/local/bin/ovn-raft-exporter healthcheck \
    "http://127.0.0.1:$port/healthz" 2>&1) || rc=$?
  expect "the image's HEALTHCHECK command passes" "$rc" "$out"
  out=$("${bah[@]}" run --isolation chroot "$ctr" -- cat /etc/debian_version 2>&1) || true
  expect "the image is Debian 13 ($out)" "$([[ "$out" == 13.* ]]; echo $?)" "$out"
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=""

  # TLS with a required client certificate on IPv6 loopback and IPv4 at once, curl as the client.
  local tls="$work/tls"
  mkdir -p "$tls"
  (cd "$tls" && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key \
      -out ca.crt -days 1 -subj /CN=ca &&
    for n in server client; do
      openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout $n.key -out $n.csr -subj /CN=$n &&
        printf 'subjectAltName=IP:::1,IP:127.0.0.1\n' >san.ext &&
        openssl x509 -req -in $n.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 1 -out $n.crt -extfile san.ext
    done && chmod a+r ./*) >/dev/null 2>&1
  printf 'tls_server_config:\n  cert_file: tls/server.crt\n  key_file: tls/server.key\n  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: tls/ca.crt\n' >"$work/web.yml"
  chmod a+r "$work/web.yml"
  "${bah[@]}" run --isolation chroot --user 0:0 -v "$work/cluster/m1:/run/ovn:ro" -v "$work:/etc/ovn-raft-exporter:ro" "$ctr" -- \
    /usr/local/bin/ovn-raft-exporter --web.listen-address="[::1]:$port" --web.listen-address="127.0.0.1:$port" \
    --web.config.file=/etc/ovn-raft-exporter/web.yml \
    --ovsdb.database=OVN_Northbound=/var/run/ovn/nb.ctl,/var/run/ovn/nb.sock >"$work/exporter-tls.log" 2>&1 &
  pid=$!
  local client=(--cacert "$tls/ca.crt" --cert "$tls/client.crt" --key "$tls/client.key")
  metrics=""
  for i in $(seq 100); do
    metrics=$(curl -sf "${client[@]}" "https://[::1]:$port/metrics" 2>/dev/null) && break
    sleep 0.1
  done
  expect "TLS 1.3 with a client certificate on [::1]: ovn_raft_up 1" \
    "$(grep -q '^ovn_raft_up{db="OVN_Northbound"} 1' <<<"$metrics"; echo $?)" "$(tail -3 "$work/exporter-tls.log")"
  out=$(curl -s -o /dev/null -w '%{http_code}' --tlsv1.2 --tls-max 1.2 "${client[@]}" "https://127.0.0.1:$port/healthz" 2>&1) || true
  expect "TLS 1.2 on 127.0.0.1" "$([ "$out" = 200 ]; echo $?)" "$out"
  out=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$tls/ca.crt" "https://[::1]:$port/metrics" 2>&1) || true
  expect "no client certificate, no page ($out)" "$([ "$out" != 200 ]; echo $?)" "$out"
  echo "image: $check passed, $fail failed"
  [ "$fail" -eq 0 ]
}

case "$mode" in
  build) build ;;
  test) smoke_test ;;
  all) build && smoke_test ;;
  *) die "usage: $0 [build|test|all]" ;;
esac
