#!/usr/bin/env bash
# Runs ConsensusEndToEndTest.RollingUpgradeAcrossReleases (integration_tests, given as $1) over
# every Open vSwitch release scripts/ovs-versions.sh provides, oldest first: the system's and
# those of Debian's newer suites, fetched or built once into its cache.
set -euo pipefail
tests=$1
versions="$(dirname "$0")/../../scripts/ovs-versions.sh"
path=""
for v in $(bash "$versions" list | awk '$2 == "system" || $2 == "binary" || $2 == "source" {print $1}' | sort -V); do
  path+="$v=$(bash "$versions" bin "$v") "
done
echo "upgrade path: $path"
OVN_RAFT_UPGRADE_PATH=$path exec "$tests" --gtest_filter=ConsensusEndToEndTest.RollingUpgradeAcrossReleases
