#!/usr/bin/env bash
# Installs everything the build, the tests and the demo need, from Debian 12 packages only.
# Idempotent: packages already present are skipped, so re-runs cost one dpkg query.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config ccache clang clang-format libclang-rt-14-dev
  prometheus-cpp-dev libcivetweb-dev libcurl4-openssl-dev rapidjson-dev
  libgtest-dev libgmock-dev libcrypt-dev zlib1g-dev libssl-dev xz-utils openssl
  ovn-central ovn-ic-db openvswitch-common prometheus prometheus-alertmanager curl jq python3 python3-yaml python3-jinja2 jsonnet procps iproute2
  faketime libfaketime strace
  buildah debootstrap dpkg-dev debhelper lintian systemd-container patch
)
# The deploy checks run Node (kubernetes-models); keep a newer node where the machine has one.
command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -q
# Packaged services (ovn-central, ovn-ic-db, prometheus, alertmanager) must not start system
# daemons: tests run their own.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo_cmd tee /usr/sbin/policy-rc.d >/dev/null
  $sudo_cmd chmod +x /usr/sbin/policy-rc.d
  trap '$sudo_cmd rm -f /usr/sbin/policy-rc.d' EXIT
fi
$sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
