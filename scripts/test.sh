#!/usr/bin/env bash
# Runs every test: installs what is missing, builds with warnings as errors, checks formatting,
# renders the Kubernetes Components onto the upstream objects and validates them, builds the
# container image (debootstrap + buildah) and runs it against a real cluster, runs the unit and
# integration tests (real ovsdb-server clusters on loopback), the unit tests again under
# AddressSanitizer + UBSan, and each libFuzzer target for FUZZ_SECONDS (default 60).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=$(nproc)
step() { printf '\n== %s\n' "$*" >&2; }

step "dependencies"
bash scripts/install-deps.sh

passed=0
failed=0
status=0
count() { # ctest log
  local line
  line=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$1" | tail -1)
  [ -n "$line" ] || return 0
  local total bad
  total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")
  bad=$(sed -E 's/.*, ([0-9]+) tests failed.*/\1/' <<<"$line")
  passed=$((passed + total - bad))
  failed=$((failed + bad))
}
count_summary() { # LOG: adds a checker's closing "NAME: N passed, M failed" line
  local line
  line=$(grep -E '^[a-z]+: [0-9]+ passed, [0-9]+ failed$' "$1" | tail -1)
  [ -n "$line" ] || { failed=$((failed + 1)); status=1; return 0; }
  passed=$((passed + $(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")))
  failed=$((failed + $(sed -E 's/.* ([0-9]+) failed$/\1/' <<<"$line")))
}

step "build (civetweb 1.16 from Debian 13's source: TLS, IPv6)"
cmake -S . -B build -G Ninja -DOVN_RAFT_WERROR=ON -DOVN_RAFT_CIVETWEB=source >/dev/null
ninja -C build

step "packager build: plain Release (no -Werror, the system's civetweb), daemon and tests"
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
if ninja -C build-release >build-release/ninja.log 2>&1; then passed=$((passed + 1)); else
  tail -30 build-release/ninja.log
  failed=$((failed + 1))
  status=1
fi
# Asked for TLS or IPv6, that build says what it lacks and how to get it.
(cd build-release && ctest -R '^cli\.(tls|ipv6)' --output-on-failure) 2>&1 | tee build-release/ctest.log || status=1
count build-release/ctest.log

step "format"
files=$(git ls-files '*.cc' '*.h' 2>/dev/null || find parsers exporter web tests -name '*.cc' -o -name '*.h')
clang-format --dry-run --Werror $files

step "rules: promtool check and test"
bash scripts/generate-mixin.sh --check
/usr/bin/python3 alerts/tests/make_tests.py --check
promtool check rules alerts/*.yaml
/usr/bin/python3 alerts/tests/lint_alerts.py
/usr/bin/python3 tests/dashboards/check_dashboards.py
/usr/bin/python3 tests/deploy/check_deploy.py build/exporter/ovn-raft-exporter
(cd alerts/tests && promtool test rules scenarios/*-test.yaml releases-test.yaml storage-test.yaml deployment-labels-test.yaml unheard-test.yaml filesystem-test.yaml raft-defects-test.yaml)

step "deploy: kustomize Components on the upstream objects, schemas, kubectl patch, Helm"
(cd tests/deploy && npm ci --no-audit --no-fund --loglevel=error)
/usr/bin/python3 tests/deploy/check_components.py 2>&1 | tee build/deploy.log || status=1
count_summary build/deploy.log
# The fixtures' facts against the upstream releases themselves, where clones of them are named.
if [ -n "${OVN_RAFT_UPSTREAM_KUBE_OVN:-}" ] && [ -n "${OVN_RAFT_UPSTREAM_OVN_KUBERNETES:-}" ]; then
  /usr/bin/python3 tests/deploy/verify_upstream.py --kube-ovn "$OVN_RAFT_UPSTREAM_KUBE_OVN" \
    --ovn-kubernetes "$OVN_RAFT_UPSTREAM_OVN_KUBERNETES" 2>&1 | tee build/upstream.log || status=1
  count_summary build/upstream.log
else
  echo "upstream: skipped (set OVN_RAFT_UPSTREAM_KUBE_OVN and OVN_RAFT_UPSTREAM_OVN_KUBERNETES to clones)"
fi

step "image: debootstrap + buildah, run against a real cluster"
bash scripts/build-image.sh all 2>&1 | grep -v '|ovsdb|WARN|' | tee build/image.log || status=1
count_summary build/image.log

step "unit and integration tests"
(cd build && ctest -j"$jobs" -LE upgrade --output-on-failure --timeout 300) 2>&1 | tee build/ctest.log || status=1
count build/ctest.log
# The alert states the disk-full scenario logged (a leader's disk fills, then recovers).
grep -E '^\[ alerts +\]' build/Testing/Temporary/LastTest.log || true

step "Open vSwitch releases: the suites that read ovsdb-server on each, and a rolling upgrade"
# The run above used Debian 12's ovsdb-server. The tests whose outcome depends on what
# ovsdb-server prints and does (the reader, the exporter on real clusters, three end-to-end
# scenarios of the rules, a full disk among them) run again on each newer release scripts/ovs-versions.sh provides,
# from Debian's binary packages where it can (cached); the rolling upgrade takes one cluster
# through all of them. OVN_RAFT_OTHER_OVS=0 skips this step.
per_release='^(ClientIntegrationTest|ExporterIntegrationTest)\.|^ConsensusEndToEndTest\.(HealthyThenFollowerKilledThenTwoKilled|ExporterDownThenFreshRestart|LeaderDiskFullFailsThenRecovers|FollowerDiskFullIsUnheardUntilRestarted)$'
system_ovs=$(ovsdb-server --version | sed -nE '1s/.* ([0-9]+\.[0-9]+\.[0-9]+).*/\1/p')
echo "ovs-$system_ovs: $(grep -cE 'Test +#[0-9]+: .* Passed' build/ctest.log) tests passed (the run above)"
versions=""
[ "${OVN_RAFT_OTHER_OVS:-1}" = 1 ] && versions=$(bash scripts/ovs-versions.sh list)
grep -v ' system$\| system \| binary \| source ' <<<"$versions" | grep . | sed 's/^/ovs-/' || true
for v in $(awk '$2 == "binary" || $2 == "source" {print $1}' <<<"$versions"); do
  t0=$SECONDS
  if ! dir=$(bash scripts/ovs-versions.sh bin "$v"); then
    echo "ovs-$v: could not be fetched or built"
    failed=$((failed + 1))
    status=1
    continue
  fi
  echo "ovs-$v: $(cat "$dir/BUILD")"
  (cd build && OVS_BIN_DIR=$dir PATH="$dir:$PATH" ctest -L integration -R "$per_release" -j1 \
    --output-on-failure --timeout 300) 2>&1 | tee "build/ctest-ovs-$v.log" || status=1
  count "build/ctest-ovs-$v.log"
  echo "ovs-$v: $(grep -E '^[0-9]+% tests passed' "build/ctest-ovs-$v.log" | tail -1), $((SECONDS - t0)) s in all"
done
if [ -n "$versions" ]; then
  t0=$SECONDS
  (cd build && ctest -L upgrade --output-on-failure) 2>&1 | tee build/ctest-upgrade.log || status=1
  count build/ctest-upgrade.log
  grep -E '^upgrade path|^\[ (scenario|alerts) +\]' build/Testing/Temporary/LastTest.log || true
  echo "rolling upgrade: $((SECONDS - t0)) s"
fi

step "abuse benchmark: every attack of the README's table, plain HTTP and TLS"
bash scripts/abuse-benchmark.sh 2>&1 | tee build/abuse.log || status=1
# One check per attack; a run that printed none is a failure too.
abuse_ok=$(grep -c '^ok ' build/abuse.log || true)
abuse_missed=$(grep -c '^MISSED ' build/abuse.log || true)
passed=$((passed + abuse_ok))
failed=$((failed + abuse_missed))
[ "$abuse_ok" -gt 0 ] || { failed=$((failed + 1)); status=1; }

step "unit tests under AddressSanitizer + UBSan"
cmake -S . -B build-asan -G Ninja -DOVN_RAFT_WERROR=ON -DOVN_RAFT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
  -DOVN_RAFT_CIVETWEB=source >/dev/null
ninja -C build-asan unit_tests ovn-raft-exporter ovn-raft-report
(cd build-asan && ctest -L unit -j"$jobs" --output-on-failure) 2>&1 | tee build-asan/ctest.log || status=1
count build-asan/ctest.log

step "fuzzing (${FUZZ_SECONDS:-60}s per target)"
if bash scripts/fuzz.sh "${FUZZ_SECONDS:-60}"; then passed=$((passed + 2)); else failed=$((failed + 2)); status=1; fi

echo
echo "all: $passed passed, $failed failed"
exit $status
