#!/usr/bin/env bash
# The test command, in two tiers (docs/dev/testing.md: what each covers, how long it takes):
#
#   scripts/test.sh          everything, as CI runs it
#   scripts/test.sh quick    the edit loop: build; unit, golden and command-line tests; format;
#                            rules (promtool check and test rules on Debian 12's Prometheus
#                            and on the newest release cached); mixin and generated files;
#                            dashboards; deploy fixtures; every fenced block of the docs run or
#                            listed (tests/docs). No clusters, no downloads.
#
# Everything is the quick tier plus: what is missing installed; the unit and integration tests
# on real ovsdb-server clusters on loopback, side by side (each test on ports of its own:
# tests/support/ports.h); the per-release suites on every newer Open vSwitch release
# scripts/ovs-versions.sh provides and a rolling upgrade through them; the rule tests and an
# end-to-end rule run on every Prometheus release scripts/monitoring-releases.sh provides; the abuse benchmark
# (each attack once, with its figures); the Kubernetes Components rendered onto the upstream
# objects and validated; the guides' scrape configs in real Prometheus instances and their
# Helm values and kustomization rendered (tests/docs); the container image built and run
# against a real cluster; the Debian package built, checked (lintian, man pages, the unit) and installed on a clean Debian 12 and
# 13 (tests/package/install_test.sh); the plain Release build a packager makes; the unit tests under ASan + UBSan and every libFuzzer target
# for FUZZ_SECONDS (default 60), both from one clang build.
#
# Each configuration is compiled once, through ccache (CCACHE_DIR, default
# /var/cache/ovn-raft-exporter/ccache, so that later runs and clones on the machine share it).
# What waits on elections and evaluations runs as background jobs, logs in build/test-logs/;
# what compiles runs meanwhile, one at a time and niced. The closing table gives each stage's
# seconds and counts; the last line is "all: N passed, M failed"; any failure exits non-zero.
# OVN_RAFT_OTHER_OVS=0 skips the other releases; TEST_JOBS (default 6) sets how many integration
# tests run at once.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tier=${1:-all}
case "$tier" in all | quick) ;; *) echo "usage: scripts/test.sh [quick]" >&2; exit 2 ;; esac
test_jobs=${TEST_JOBS:-6}
logs=$root/build/test-logs
t_start=$SECONDS
say() { printf '%s\n' "$*" >&2; }
step() { printf '\n== [%4d s] %s\n' "$((SECONDS - t_start))" "$*" >&2; }

# --- results: one line per stage in $logs/results: NAME SECONDS PASSED FAILED -------------
rm -rf "$logs"
mkdir -p "$logs"
record() { echo "$1 $2 $3 $4" >>"$logs/results"; }
# The counts a log closes with: ctest's "N% tests passed, F tests failed out of T", or a
# checker's "NAME: P passed, F failed". A log with neither counts as one failure.
counts() { # LOG -> "PASSED FAILED"
  local line
  line=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$1" | tail -1)
  if [ -n "$line" ]; then
    local total bad
    total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")
    bad=$(sed -E 's/.*, ([0-9]+) tests failed.*/\1/' <<<"$line")
    echo "$((total - bad)) $bad"
    return
  fi
  line=$(grep -E '^[a-z0-9 .-]+: [0-9]+ passed, [0-9]+ failed$' "$1" | tail -1)
  if [ -n "$line" ]; then
    sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/' <<<"$line"
    return
  fi
  echo "0 1"
}
# stage NAME CMD...: runs CMD in the foreground, its output to the terminal and $logs/NAME.log.
# A command that prints no counts counts as one check, passed when it exits 0.
stage() {
  local name=$1 t0=$SECONDS rc c
  shift
  step "$name"
  "$@" 2>&1 | tee "$logs/$name.log"
  rc=${PIPESTATUS[0]}
  if grep -qE '^[0-9]+% tests passed, |^[a-z0-9 .-]+: [0-9]+ passed, [0-9]+ failed$' "$logs/$name.log"; then
    c=$(counts "$logs/$name.log")
    # A failing command whose counts say nothing failed still fails.
    [ "$rc" -eq 0 ] || [ "${c#* }" != 0 ] || c="${c% *} 1"
  elif [ "$rc" -eq 0 ]; then c="1 0"; else c="0 1"; fi
  record "$name" "$((SECONDS - t0))" $c
  say "-- $name: $((SECONDS - t0)) s, exit $rc"
  return "$rc"
}
# job NAME CMD...: the same in the background, output only to $logs/NAME.log; collect waits.
jobs_started=()
job() {
  local name=$1
  shift
  step "started in the background: $name (log: build/test-logs/$name.log)"
  (
    t0=$SECONDS
    "$@" >"$logs/$name.log" 2>&1
    echo "$? $((SECONDS - t0))" >"$logs/$name.rc"
  ) &
  jobs_started+=("$name:$!")
}
collect() {
  local entry name pid rc secs c
  for entry in "${jobs_started[@]}"; do
    name=${entry%%:*} pid=${entry#*:}
    wait "$pid"
    read -r rc secs <"$logs/$name.rc"
    c=$(counts "$logs/$name.log")
    [ "$rc" -eq 0 ] || [ "${c#* }" != 0 ] || c="${c% *} 1"
    if grep -qE '^[0-9]+% tests passed, |^[a-z0-9 .-]+: [0-9]+ passed, [0-9]+ failed$' "$logs/$name.log"; then :
    elif [ "$rc" -eq 0 ]; then c="1 0"; fi
    record "$name" "$secs" $c
    step "$name: done in $secs s, exit $rc"
    # A job's log is shown whole when it failed, else its closing lines.
    if [ "$rc" -ne 0 ]; then cat "$logs/$name.log"; else tail -"${TAIL_LINES:-4}" "$logs/$name.log"; fi
  done
  jobs_started=()
}

# --- the compiler cache and the shared civetweb --------------------------------------------
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_DIR=${CCACHE_DIR:-/var/cache/ovn-raft-exporter/ccache}
  mkdir -p "$CCACHE_DIR" 2>/dev/null && [ -w "$CCACHE_DIR" ] || export CCACHE_DIR=$HOME/.cache/ccache
  # Paths relative to the clone, and no working directory in the hash: another clone of the
  # same sources hits the same entries. ccache does not make the sanitizers' ignore list
  # relative: its path is left out of the hash, and its digest, on the compile line too, stands
  # for it (CMakeLists.txt).
  export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=true CCACHE_IGNOREOPTIONS='-fsanitize-ignorelist=*'
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# civetweb from Debian's source, built once per version of its build script, for every build.
civetweb=/var/cache/ovn-raft-exporter/civetweb/build-$(sha256sum scripts/build-civetweb.sh | cut -c1-12)
mkdir -p "$civetweb" 2>/dev/null && [ -w "$civetweb" ] || civetweb=$root/build/civetweb
configure() { # DIR ARGS...
  local dir=$1
  shift
  cmake -S . -B "$dir" -G Ninja "${launcher[@]}" "$@" >/dev/null
}
compile() { # DIR [TARGETS...]: niced, so that the waiting jobs keep their turn on the CPU
  local dir=$1
  shift
  nice -n 10 ninja -C "$dir" "$@"
  local rc=$?
  [ ${#launcher[@]} -eq 0 ] || ccache -s 2>/dev/null | grep -E '^ *(Hits|Misses):' | tr -s ' ' | sed "s|^|ccache ($dir):|"
  return $rc
}

# --- stages -------------------------------------------------------------------------------
build_main() {
  configure build -DOVN_RAFT_WERROR=ON -DOVN_RAFT_CIVETWEB=source -DOVN_RAFT_CIVETWEB_PREFIX="$civetweb" &&
    compile build
}
format_check() {
  local files
  files=$(git ls-files '*.cc' '*.h' 2>/dev/null || find base parsers ovsdb reader metrics cli web \
    exporter consensus report http_client tests -name '*.cc' -o -name '*.h')
  # shellcheck disable=SC2086
  clang-format --dry-run --Werror $files
}
rules_check() { # promtool, the generated files, the mixin, the dashboards, the deploy fixtures
  local check=0 fail=0 name
  run() {
    name=$1
    shift
    if "$@"; then check=$((check + 1)); else fail=$((fail + 1)); echo "FAILED: $name"; fi
  }
  run "mixin: alerts/ is generated from mixin/" bash scripts/generate-mixin.sh --check
  run "rule tests: generated from their scenarios" /usr/bin/python3 alerts/tests/make_tests.py --check
  # The rules checked and tested on Debian 12's Prometheus and, in the quick tier, on the newest
  # release cached (scripts/monitoring-releases.sh), side by side with the same expectations;
  # the full run tests each newer release in its own job, niced beside the cluster jobs.
  local newest dir tests
  tests='cd alerts/tests && "$0" test rules $(ls scenarios/*-test.yaml *-test.yaml)'
  run "promtool check rules" promtool check rules alerts/*.yaml
  newest=$(bash scripts/monitoring-releases.sh list | awk '$1 ~ /^prometheus-/ {print $1}' | sort -t- -k2 -V | tail -1)
  if [ "$tier" = all ]; then :
  elif dir=$(MONITORING_NO_FETCH=1 bash scripts/monitoring-releases.sh bin "$newest" 2>/dev/null); then
    run "promtool check rules ($newest)" "$dir/promtool" check rules alerts/*.yaml
    bash -c "$tests" "$dir/promtool" >"$logs/rules-$newest.out" 2>&1 &
    local newest_pid=$!
  else
    echo "$newest: not cached, its rule tests skipped here (scripts/test.sh fetches it)"
  fi
  # Every rule test file there is, so that a new one is never left out.
  run "promtool test rules" bash -c "$tests" promtool
  if [ -n "${newest_pid:-}" ]; then
    run "promtool test rules ($newest)" wait "$newest_pid"
    grep -B2 -A12 FAILED "$logs/rules-$newest.out" || true
  fi
  echo "rules: $check passed, $fail failed"
}
# Every fenced block of README.md and docs/ run or listed as an illustration (tests/docs/).
docs_check() {
  /usr/bin/python3 tests/docs/check_docs.py
}
# The guides' scrape configs in real Prometheus instances with the shipped rules, scraping real
# exporters of a real cluster; then, once the deploy job has installed kubectl and helm, the
# guides' kustomization and Helm values rendered and validated.
docs_full() {
  local rc=0 p=0 f=0 line
  bash tests/docs/docs_prometheus.sh build | tee "$logs/docs-prometheus.out" || rc=1
  while [ ! -f "$logs/deploy.rc" ]; do sleep 2; done
  /usr/bin/python3 tests/docs/check_docs.py --full | tee "$logs/docs-render.out" || rc=1
  for line in $(cat "$logs/docs-prometheus.out" "$logs/docs-render.out" |
    sed -nE 's/^docs [a-z]+: ([0-9]+) passed, ([0-9]+) failed$/\1:\2/p'); do
    p=$((p + ${line%:*})) f=$((f + ${line#*:}))
  done
  [ $((p + f)) -gt 0 ] || f=1
  echo "docs-full: $p passed, $f failed"
  return $rc
}
unit_tests() {
  (cd build && ctest -L 'unit|golden' -j"$(nproc)" --output-on-failure --timeout 120)
}
integration_tests() {
  (cd build && ctest -L integration -j"$test_jobs" --output-on-failure --timeout 300 \
    --output-junit "$logs/integration.xml")
  local rc=$?
  # The alert states the disk-full scenario logged (a leader's disk fills, then recovers).
  grep -ohE '^\[ alerts +\].*' "$logs/integration.xml" || true
  return $rc
}
# The tests whose outcome depends on what ovsdb-server prints and does (the reader, the
# exporter on real clusters, standalone and relay databases, the interconnection databases,
# three end-to-end scenarios of the rules, a full disk among them) run again on each newer
# release, from Debian's binary packages where it can (cached).
per_release='^(ClientIntegrationTest|ExporterIntegrationTest|DatabaseModelIntegrationTest|IcDatabasesIntegrationTest)\.|^ConsensusEndToEndTest\.(HealthyThenFollowerKilledThenTwoKilled|ExporterDownThenFreshRestart|LeaderDiskFullFailsThenRecovers|FollowerDiskFullIsUnheardUntilRestarted)$'
release_suite() { # VERSION DIR
  echo "ovs-$1: $(cat "$2/BUILD")"
  (cd build && OVS_BIN_DIR=$2 PATH="$2:$PATH" ctest -L integration -R "$per_release" -j2 \
    --output-on-failure --timeout 300 --output-junit "$logs/ovs-$1.xml")
}
upgrade() {
  (cd build && ctest -L upgrade --output-on-failure --output-junit "$logs/upgrade.xml")
  local rc=$?
  grep -ohE '^(upgrade path|\[ (scenario|alerts) +\]).*' "$logs/upgrade.xml" || true
  return $rc
}
after_integration() { # CMD...: waits for the integration job to end, then runs CMD
  while [ ! -f "$logs/integration.rc" ]; do sleep 2; done
  "$@"
}
abuse() { # every attack once, plain HTTP and TLS; one check per attack, none printed fails
  bash scripts/abuse-benchmark.sh
  local rc=$? ok missed
  ok=$(grep -c '^ok ' "$logs/abuse.log")
  missed=$(grep -c '^MISSED ' "$logs/abuse.log")
  # The misses again beside the count, where a log cut short still shows them.
  grep '^MISSED ' "$logs/abuse.log" | cut -c1-300
  echo "abuse: $ok passed, $((missed + (ok == 0))) failed"
  return $rc
}
deploy() { # kustomize Components on the upstream objects, schemas, kubectl patch, Helm
  (cd tests/deploy && npm ci --no-audit --no-fund --loglevel=error) || return 1
  /usr/bin/python3 tests/deploy/check_components.py
}
upstream() { # the fixtures' facts against the upstream releases themselves, where clones are named
  /usr/bin/python3 tests/deploy/verify_upstream.py --kube-ovn "$OVN_RAFT_UPSTREAM_KUBE_OVN" \
    --ovn-kubernetes "$OVN_RAFT_UPSTREAM_OVN_KUBERNETES"
}
image() { # debootstrap + buildah, then the image run against a real cluster
  bash scripts/build-image.sh all 2>&1 | grep -v '|ovsdb|WARN|'
}
release_build() { # a packager's plain Release: no -Werror, the system's civetweb, daemon and tests
  configure build-release -DCMAKE_BUILD_TYPE=Release || return 1
  compile build-release || return 1
  # Asked for TLS or IPv6, that build says what it lacks and how to get it.
  (cd build-release && ctest -R '^cli\.(tls|ipv6)' --output-on-failure)
}
# One clang build with ASan + UBSan serves the sanitized unit tests and the fuzz targets
# (OVN_RAFT_FUZZ implies the sanitizers); scripts/fuzz.sh runs whatever targets tests/fuzz has.
sanitizer_build() {
  configure build-sanitize -DCMAKE_CXX_COMPILER=clang++ -DOVN_RAFT_WERROR=ON -DOVN_RAFT_FUZZ=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOVN_RAFT_CIVETWEB=source -DOVN_RAFT_CIVETWEB_PREFIX="$civetweb" &&
    compile build-sanitize
}
sanitizer_tests() {
  (cd build-sanitize && ctest -L unit -j"$(nproc)" --output-on-failure --timeout 300)
}
fuzz() {
  FUZZ_BUILD_DIR=$root/build-sanitize nice -n 10 bash scripts/fuzz.sh "${FUZZ_SECONDS:-60}" \
    >"$logs/fuzz.out" 2>&1
  local rc=$? n
  cat "$logs/fuzz.out"
  n=$(grep -c '^fuzz: .* for [0-9]*s' "$logs/fuzz.out")
  if [ "$rc" -eq 0 ]; then echo "fuzz: $n passed, 0 failed"; else echo "fuzz: 0 passed, $((n > 0 ? n : 1)) failed"; fi
  return $rc
}

# The rule tests and the end-to-end rule run on a newer Prometheus release; on the newest also
# the scenarios whose rules count samples at a window's edge, the inhibition test with the
# newest Alertmanager, and the guides' scrape configs (Debian 12's releases run them in the
# rules stage and the integration and docs jobs).
prometheus_release() { # RELEASE
  local dir=${mon_dir[$1]} am="" tests p=0 f=0 rc=0 line newest=""
  # A family's name stands for its newest release.
  [ "$dir" != "$(bash scripts/monitoring-releases.sh bin prometheus)" ] || newest=$1
  echo "$1: $("$dir/prometheus" --version 2>&1 | head -1)"
  tests='^ConsensusEndToEndTest\.HealthyThenFollowerKilledThenTwoKilled$'
  if [ "$1" = "$newest" ]; then
    am=$(bash scripts/monitoring-releases.sh bin alertmanager)
    echo "with $("$am/prometheus-alertmanager" --version 2>&1 | head -1)"
    tests+='|^ConsensusEndToEndTest\.(SlowFollowerDiskIsNamedSlowOnlyThen|LeadershipTransferIsCountedApartFromElections)$|^integration\.alertmanager_inhibit$'
  fi
  # ctest's summary renamed: this job closes with its own count of both parts.
  (cd build && PATH="$dir:$am:$PATH" ctest -R "$tests" -j3 --output-on-failure --timeout 400 \
    --output-junit "$logs/$1.xml") | sed -E 's/^([0-9]+% tests passed)/ctest: \1/'
  [ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
  [ "$1" != "$newest" ] || PATH="$dir:$PATH" bash tests/docs/docs_prometheus.sh build || rc=1
  # The rule tests, on a copy with its scenario tests generated there, which the rules stage
  # does not rewrite under them.
  rm -rf "$logs/alerts-$1" && cp -r alerts "$logs/alerts-$1"
  if /usr/bin/python3 "$logs/alerts-$1/tests/make_tests.py" &&
    (cd "$logs/alerts-$1/tests" && nice -n 10 "$dir/promtool" check rules ../*.yaml &&
      nice -n 10 "$dir/promtool" test rules $(ls scenarios/*-test.yaml *-test.yaml)); then
    echo "rule tests: 1 passed, 0 failed"
  else
    echo "rule tests: 0 passed, 1 failed"
    rc=1
  fi
  for line in $(sed -nE 's/^ctest: [0-9]+% tests passed, ([0-9]+) tests failed out of ([0-9]+)$/\2:\1/p; s/^(docs [a-z]+|rule tests): ([0-9]+) passed, ([0-9]+) failed$/+\2:\3/p' "$logs/$1.log"); do
    case $line in
      +*) line=${line#+} p=$((p + ${line%:*})) f=$((f + ${line#*:})) ;;
      *) p=$((p + ${line%:*} - ${line#*:})) f=$((f + ${line#*:})) ;;
    esac
  done
  [ $((p + f)) -gt 0 ] || f=1
  echo "$1: $p passed, $f failed"
  return $rc
}

# The rule tests translated for VictoriaMetrics' ruler, its known differences listed: niced, so
# that the jobs that wait on clusters keep their turn on the CPU.
vmalert_tool() {
  VM_BIN=$(bash scripts/monitoring-releases.sh bin victoriametrics) nice -n 10 /usr/bin/python3 alerts/tests/to_vmalert_tool.py --jobs 2
}

package() { # the Debian package built and checked, then installed on a clean Debian 12 and 13
  local rc=0 ok=0 bad=0 dist deb log
  nice -n 10 bash scripts/build-package.sh build/package && ok=$((ok + 1)) || { bad=$((bad + 1)); rc=1; }
  deb=$(ls build/package/ovn-raft-exporter_*.deb 2>/dev/null | tail -1)
  for dist in bookworm trixie; do
    [ -n "$deb" ] || { bad=$((bad + 1)); rc=1; continue; }
    log=$logs/package-$dist.log
    bash tests/package/install_test.sh "$dist" "$deb" >"$log" 2>&1 || rc=1
    tail -3 "$log"
    if grep -q "^install test on Debian $dist: .* 0 failed" "$log"; then ok=$((ok + 1)); else
      bad=$((bad + 1))
      rc=1
      cat "$log"
    fi
  done
  echo "package: $ok passed, $bad failed"
  return $rc
}

# --- the run ------------------------------------------------------------------------------
if [ "$tier" = all ]; then
  stage dependencies bash scripts/install-deps.sh || { say "dependencies missing"; exit 1; }
fi
stage build build_main || {
  record all "$((SECONDS - t_start))" 0 1
  say "all: 0 passed, 1 failed"
  exit 1
}

if [ "$tier" = all ]; then
  # The newer Open vSwitch releases, fetched once (cached) before the jobs that use them start.
  versions=""
  [ "${OVN_RAFT_OTHER_OVS:-1}" = 1 ] && versions=$(bash scripts/ovs-versions.sh list)
  grep -v ' system$\| system \| binary \| source ' <<<"$versions" | grep . | sed 's/^/ovs-/' || true
  declare -A ovs_dir=()
  for v in $(awk '$2 == "binary" || $2 == "source" {print $1}' <<<"$versions"); do
    if d=$(bash scripts/ovs-versions.sh bin "$v"); then ovs_dir[$v]=$d; else
      say "ovs-$v: could not be fetched or built"
      record "ovs-$v" 0 0 1
    fi
  done
  # The newer Prometheus and Alertmanager releases and VictoriaMetrics, fetched once (cached).
  declare -A mon_dir=()
  for r in $(bash scripts/monitoring-releases.sh list | awk '$2 != "system" {print $1}'); do
    if d=$(bash scripts/monitoring-releases.sh bin "$r"); then mon_dir[$r]=$d; else
      say "$r: could not be fetched"
      record "$r" 0 0 1
    fi
  done
  # What waits, side by side.
  job integration integration_tests
  for r in "${!mon_dir[@]}"; do [[ $r != prometheus-* ]] || job "$r" prometheus_release "$r"; done
  job vmalert-tool vmalert_tool
  for v in "${!ovs_dir[@]}"; do job "ovs-$v" release_suite "$v" "${ovs_dir[$v]}"; done
  [ -z "$versions" ] || job upgrade upgrade
  # The abuse benchmark times password checks and scrapes against targets: it starts once the
  # integration tests, which would take its CPU, are done.
  job abuse after_integration abuse
  job deploy deploy
  if [ -n "${OVN_RAFT_UPSTREAM_KUBE_OVN:-}" ] && [ -n "${OVN_RAFT_UPSTREAM_OVN_KUBERNETES:-}" ]; then
    job upstream upstream
  else
    say "upstream: skipped (set OVN_RAFT_UPSTREAM_KUBE_OVN and OVN_RAFT_UPSTREAM_OVN_KUBERNETES to clones)"
  fi
  # More stages that wait plug in here, as background jobs: job NAME FUNCTION [ARGS...] (the
  # log closes with "NAME: P passed, F failed" or ctest's summary, else the exit status counts
  # as one check).
  job package package
  # A fresh clone built with the network cut, from civetweb's tarballs in a directory.
  job offline bash tests/offline/build_test.sh
  job docs-full docs_full
fi

# The quick checks (light on the CPU), then what compiles, one configuration at a time.
stage unit unit_tests
stage format format_check
stage rules rules_check
stage docs docs_check
if [ "$tier" = all ]; then
  stage release-build release_build
  sanitized=0
  stage sanitizer-build sanitizer_build || sanitized=1
  # The image compiles inside buildah: started once the compiles here are done.
  job image image
  if [ "$sanitized" = 0 ]; then
    stage sanitizer-tests sanitizer_tests
    stage fuzz fuzz
  fi
  TAIL_LINES=6 collect
fi

# --- the closing note -----------------------------------------------------------------------
passed=0 failed=0
printf '\n%-18s %7s %7s %7s\n' stage seconds passed failed
while read -r name secs p f; do
  printf '%-18s %7s %7s %7s\n' "$name" "$secs" "$p" "$f"
  passed=$((passed + p)) failed=$((failed + f))
done <"$logs/results"
printf '%-18s %7s\n' "total (wall)" "$((SECONDS - t_start))"
echo
echo "all: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
