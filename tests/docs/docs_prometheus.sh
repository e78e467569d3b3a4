#!/usr/bin/env bash
# The guides' Prometheus configs in a real Prometheus each: every fenced scrape config of
# README.md and docs/**/*.md (tests/docs/check_docs.py --emit-prometheus: the config as written,
# its targets moved to the exporters here, the shipped rules), scraping the built exporters in
# front of a real 3-member NB+SB cluster, the exporters run with the flags of docs/hosts.md's
# ARGS line (the listen address aside). For each config, with the job label it gives:
#   - the recording rules record (ovn_raft_cluster:reporters:count is 3 for both databases);
#   - the hosts.md expected size reaches the rules, both clusters match it and no size alert
#     evaluates; member 3 leaves the NB cluster: OVNRaftTooFewMembers
#     evaluates (pending) for NB;
#   - exporter 3 stops: OVNRaftExporterDown evaluates (pending) with the snippet's job label.
#
#   docs_prometheus.sh [BUILD_DIR]     closes with "docs prometheus: N passed, M failed"
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
. "$root/scripts/lib.sh"
claim_ports
build=${1:-$root/build}
bin="$build/exporter/ovn-raft-exporter"
work=$(mktemp -d /tmp/ovn-raft-docs.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  "$root/scripts/raft-cluster.sh" stop "$work/cluster" >/dev/null 2>&1 || true
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
passed=0 failed=0
result() { # OK WHAT
  if [ "$1" = 0 ]; then passed=$((passed + 1)); echo "ok   $2"; else failed=$((failed + 1)); echo "FAIL $2"; fi
}
query() { # PORT PROMQL -> number of series
  curl -s "http://127.0.0.1:$1/api/v1/query" --data-urlencode "query=$2" | jq '.data.result | length' 2>/dev/null
}
# until_all SECONDS PROMQL-TEMPLATE: waits, at most SECONDS of wall time, until every Prometheus
# answers with a series (@JOB@ stands for its snippet's job label); one check per Prometheus,
# with the seconds since the last step (t0).
until_all() {
  local limit=$1 template=$2 i q deadline=$((SECONDS + $1))
  local -A done_=()
  while :; do
    for i in "${!slugs[@]}"; do
      [ -z "${done_[$i]:-}" ] || continue
      q=${template//@JOB@/${jobs_of[$i]}}
      [ "$(query "${ports[$i]}" "$q")" -gt 0 ] 2>/dev/null && done_[$i]=$((SECONDS - t0))
    done
    if [ ${#done_[@]} -ge ${#slugs[@]} ] || [ $SECONDS -ge $deadline ]; then break; fi
    sleep 0.5
  done
  for i in "${!slugs[@]}"; do
    q=${template//@JOB@/${jobs_of[$i]}}
    if [ -n "${done_[$i]:-}" ]; then result 0 "${wheres[$i]} (job ${jobs_of[$i]}): $q after ${done_[$i]} s"
    else result 1 "${wheres[$i]} (job ${jobs_of[$i]}): $q: nothing within $limit s"; fi
  done
}

[ -x "$bin" ] || { echo "no exporter at $bin"; echo "docs prometheus: 0 passed, 1 failed"; exit 1; }
raft_port=$(free_port 2)
exp_port=$(free_port)
"$root/scripts/raft-cluster.sh" start "$work/cluster" 3 "$raft_port" >/dev/null 2>&1

# The flags docs/hosts.md puts in /etc/default/ovn-raft-exporter, less the listen address.
args_line=$(grep -m1 -E '^ARGS="' "$root/docs/hosts.md")
read -r -a guide_flags <<<"$(sed -E 's/^ARGS="(.*)"$/\1/' <<<"$args_line")"
flags=()
for f in "${guide_flags[@]}"; do [[ $f == --web.listen-address=* ]] || flags+=("$f"); done
echo "exporters: the flags of docs/hosts.md: ${flags[*]}"
targets=()
for n in 1 2 3; do
  m=$work/cluster/m$n
  "$bin" --web.listen-address="127.0.0.$n:$exp_port" --ovsdb.database="OVN_Northbound=$m/nb.ctl,$m/nb.sock" \
    --ovsdb.database="OVN_Southbound=$m/sb.ctl,$m/sb.sock" --log.level=warn "${flags[@]}" 2>>"$work/exporter-$n.log" &
  pids+=($!)
  exporter_pid[n]=$!
  targets+=("127.0.0.$n:$exp_port")
done

mapfile -t index < <(/usr/bin/python3 "$root/tests/docs/check_docs.py" --exporter "$bin" --report "$build/report/ovn-raft-report" \
  --emit-prometheus "$work/prometheus" --targets "$(IFS=,; echo "${targets[*]}")")
slugs=() wheres=() jobs_of=() ports=()
for line in "${index[@]}"; do
  IFS=$'\t' read -r slug where jobs <<<"$line"
  if [[ $jobs == *,* ]]; then result 1 "$where: several job labels ($jobs); one per snippet is checked"; continue; fi
  slugs+=("$slug") wheres+=("$where") jobs_of+=("$jobs")
  port=$(free_port)
  ports+=("$port")
  d=$work/prometheus/$slug
  mkdir -p "$d/data"
  prometheus --config.file="$d/prometheus.yml" --storage.tsdb.path="$d/data" \
    --web.listen-address="127.0.0.1:$port" --log.level=warn >"$d/prometheus.log" 2>&1 &
  pids+=($!)
done
echo "prometheus: ${#slugs[@]} configs from the guides: ${wheres[*]}"
[ ${#slugs[@]} -gt 0 ] || result 1 "no scrape config found in the guides"
t0=$SECONDS
"$root/scripts/raft-cluster.sh" wait "$work/cluster" >/dev/null
for db in OVN_Northbound OVN_Southbound; do
  until_all 60 "ovn_raft_cluster:reporters:count{db=\"$db\"} == 3"
done
# The guide's expected size reaches the rules: both clusters compared with it, and equal (so that
# the alert below is the leave's doing).
until_all 30 'count(ovn_raft_cluster:members_vs_expected:diff == 0) == 2'
for i in "${!slugs[@]}"; do
  n=$(query "${ports[$i]}" 'ALERTS{alertname=~"OVNRaftToo(Few|Many)Members"}')
  result "$([ "$n" = 0 ] && echo 0 || echo 1)" "${wheres[$i]} (job ${jobs_of[$i]}): no size alert with every member in"
done
t0=$SECONDS
"$root/scripts/raft-cluster.sh" leave "$work/cluster" 3 nb >/dev/null
until_all 90 'ALERTS{alertname="OVNRaftTooFewMembers", db="OVN_Northbound"}'
t0=$SECONDS
kill "${exporter_pid[3]}"
until_all 30 'ALERTS{alertname="OVNRaftExporterDown", job="@JOB@", instance="127.0.0.3:'"$exp_port"'"}'
for i in "${!slugs[@]}"; do
  grep -iE 'level=(error|warn)' "$work/prometheus/${slugs[$i]}/prometheus.log" | head -3 | sed "s|^|  ${wheres[$i]} prometheus: |" || true
done
echo "docs prometheus: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
