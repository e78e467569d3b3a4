#!/usr/bin/env bash
# The fleet pipeline on VictoriaMetrics, end to end (scripts/fleet-pipeline.sh): two real
# 3-member NB+SB Raft clusters (namespaces east and west), the built exporter beside every
# member, two vmagents that split each cluster's members between them, one victoria-metrics,
# vmalert with the shipped rules and alerts (for: divided by 30, at least three intervals), a
# real Alertmanager with the shipped routes and inhibit rules, and a webhook. A reference
# Prometheus scrapes the same exporters with the same rules and alerts, as the single-Prometheus
# tests run them.
#
# Verdicts, the same as on one Prometheus (tests/integration/consensus_end_to_end_test.cc):
#   healthy: no alert at all (not pending, not firing, nothing at the Alertmanager) over a
#     sustained window, once the records are complete;
#   east, a follower restarted with a fresh database at the same address: its old IDs named
#     stale by the records (stale_suspect:named_by), OVNRaftStaleMember,
#     OVNRaftHostClaimedByMultipleIDs, OVNRaftTooManyMembers and OVNRaftQuorumAtRisk firing and
#     paged, per database;
#   west, a follower killed: its IDs silent, failures tolerated 0, OVNRaftQuorumAtRisk,
#     OVNRaftMemberNotReporting and OVNRaftDatabaseUnreadable firing and paged.
# vmalert sees a record only once it has been written and has become queryable, so a rule that
# reads another rule's record works on an older value of it (the pipeline stages the rules by
# level against that). Every second the alerts of vmalert and of the reference Prometheus are
# logged; an alert vmalert raises that the reference never raised in the same phase, firing, or
# pending beyond two evaluations where the reference raised that alert for nothing in the
# namespace, is a false alert of the pipeline, and fails.
# OVNRaftReleaseWithKnownRaftDefects is left out, as in the single-Prometheus tests: it names
# every member of an older release (the system's ovsdb-server among them) whatever happens.
#
#   fleet_pipeline_test.sh [BUILD_DIR]     exit 0 on success; prints the time to each verdict
# VM_BIN_DIR, AM_BIN_DIR: the releases to run (default: scripts/monitoring-releases.sh bin).
# FLEET_VM_FLAGS, FLEET_VMALERT_FLAGS: passed to scripts/fleet-pipeline.sh (other settings).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
. "$root/scripts/lib.sh"
# A port block of our own where the test suite hands them out (scripts/lib.sh claim_ports).
claim_ports
build=${1:-${BUILD_DIR:-$root/build}}
bin="$build/exporter/ovn-raft-exporter"
work=$(mktemp -d /tmp/ovn-raft-fleet.XXXXXX)
fail() { echo "FAIL: $*" >&2; exit 1; }
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  "$root/scripts/fleet-pipeline.sh" stop "$work/fleet" 2>/dev/null || true
  for c in east west; do "$root/scripts/raft-cluster.sh" stop "$work/$c" >/dev/null 2>&1 || true; done
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
[ -x "$bin" ] || fail "no exporter at $bin (ninja -C $build ovn-raft-exporter)"
command -v prometheus >/dev/null || fail "no prometheus (scripts/install-deps.sh)"
VM_BIN_DIR=${VM_BIN_DIR:-$(bash "$root/scripts/monitoring-releases.sh" bin victoriametrics)}
AM_BIN_DIR=${AM_BIN_DIR:-$(bash "$root/scripts/monitoring-releases.sh" bin alertmanager)}
export VM_BIN_DIR AM_BIN_DIR
export OVN_RAFT_FOR_SPEEDUP=30
# A for: of one interval fires on two samples in a row, and vmagent and the reference sample at
# different moments: a state a loaded machine holds for two scrapes (a follower's heartbeats
# late) would page in one and not the other. Three intervals keep the for: a window.
export OVN_RAFT_FOR_MIN=6
excluded=OVNRaftReleaseWithKnownRaftDefects
t0=$(date +%s.%N)
since() { echo "$(date +%s.%N) $1" | awk '{printf "%.0f", $1 - $2}'; }
say() { printf '%5ss %s\n' "$(since "$t0")" "$*"; }

say "== two 3-member NB+SB clusters (east, west), one exporter per member"
"$root/scripts/raft-cluster.sh" start "$work/east" 3 >"$work/east.log" 2>&1 &
east_pid=$!
"$root/scripts/raft-cluster.sh" start "$work/west" 3 >"$work/west.log" 2>&1 ||
  { cat "$work/west.log"; fail "the west cluster did not start"; }
wait "$east_pid" || { cat "$work/east.log"; fail "the east cluster did not start"; }
targets=() prom_targets=""
for c in east west; do
  port=$(free_port 3)
  for m in 1 2 3; do
    start_exporter "$bin" "$((port + m - 1))" "$work/$c/m$m" --cluster.expected-members=3 \
      2>>"$work/exporter-$c-$m.log"
    pids+=($!)
    # The pod ordinal is the member's number less one, as in a StatefulSet.
    targets+=("$c/$((m - 1))=127.0.0.1:$((port + m - 1))")
    prom_targets+="      - targets: ['127.0.0.1:$((port + m - 1))']
        labels: {namespace: '$c', pod: 'ovn-central-$((m - 1))'}
"
  done
done

say "== the pipeline: 2 vmagents, victoria-metrics, vmalert, Alertmanager, webhook"
"$root/scripts/fleet-pipeline.sh" start "$work/fleet" "${targets[@]}"
# shellcheck disable=SC1091
. "$work/fleet/env"
vm="http://127.0.0.1:$VM_PORT"

say "== the reference: one Prometheus, the same exporters, rules and alerts"
prom_port=$(free_port)
mkdir -p "$work/prometheus"
cat >"$work/prometheus/prometheus.yml" <<YAML
global: {scrape_interval: 2s, scrape_timeout: 2s, evaluation_interval: 2s}
rule_files: ['$work/fleet/rules.yaml', '$work/fleet/alerts.yaml']
scrape_configs:
  - job_name: ovn-raft-exporter
    static_configs:
$prom_targets
YAML
prometheus --config.file="$work/prometheus/prometheus.yml" --storage.tsdb.path="$work/prometheus/data" \
  --web.listen-address="127.0.0.1:$prom_port" --log.level=warn >"$work/prometheus.log" 2>&1 &
pids+=($!)

# Every second, the alerts of vmalert and of the reference, one JSON line each.
cat >"$work/monitor.py" <<'PY'
import json, sys, time, urllib.request
out, vmalert, prom = sys.argv[1], sys.argv[2], sys.argv[3]
def alerts(url, key):
    try:
        data = json.load(urllib.request.urlopen(url, timeout=2))["data"]["alerts"]
    except Exception:
        return None
    return [{"name": a["labels"]["alertname"] if key else a["name"], "labels": a["labels"],
             "state": a["state"]} for a in data]
while True:
    t = time.time()
    with open(out, "a") as f:
        for src, url, key in (("vmalert", f"http://127.0.0.1:{vmalert}/api/v1/alerts", False),
                              ("prometheus", f"http://127.0.0.1:{prom}/api/v1/alerts", True)):
            got = alerts(url, key)
            if got is not None:
                f.write(json.dumps({"t": t, "src": src, "alerts": got}) + "\n")
    time.sleep(max(0.0, 1.0 - (time.time() - t)))
PY
python3 "$work/monitor.py" "$work/alerts.jsonl" "$VMALERT_PORT" "$prom_port" &
pids+=($!)

# What the log holds: `seen SRC FROM TO` the alerts (alertname/namespace/db/who state) SRC
# showed between the two times; `false FROM TO` those vmalert showed that the reference did not,
# and that fired, or stayed pending longer than two evaluations while the reference raised that
# alert for no member or database of the namespace. (The two scrape the exporters at different
# moments, so a state the cluster holds for a scrape or two while a member restarts, its old ID
# silent before the new one is named, may show in one and not the other, or for NB in one and
# SB in the other: a sample, not a lag.)
cat >"$work/alerts.py" <<'PY'
import json, sys
log, cmd, excluded = sys.argv[1], sys.argv[2], sys.argv[3]
def ident(a):
    l = a["labels"]
    who = l.get("member_id") or l.get("server_id") or l.get("instance") or l.get("host") or "-"
    return f'{a["name"]}/{l.get("namespace", "-")}/{l.get("db", "-")}/{who}'
def seen(src, t1, t2):
    state, since, longest = {}, {}, {}
    for line in open(log):
        r = json.loads(line)
        if r["src"] != src or not t1 <= r["t"] <= t2:
            continue
        now = set()
        for a in r["alerts"]:
            if a["name"] != excluded:
                i = ident(a)
                now.add(i)
                state[i] = "firing" if state.get(i) == "firing" or a["state"] == "firing" else a["state"]
                since.setdefault(i, r["t"])
                longest[i] = max(longest.get(i, 0), r["t"] - since[i])
        for i in list(since):
            if i not in now:
                del since[i]
    return {i: (s, longest[i]) for i, s in state.items()}
if cmd == "seen":
    for i, (s, d) in sorted(seen(sys.argv[4], float(sys.argv[5]), float(sys.argv[6])).items()):
        print(f"{i} {s} ({d:.0f} s)")
elif cmd == "false":
    t1, t2 = float(sys.argv[4]), float(sys.argv[5])
    ref = seen("prometheus", t1, t2)
    kind = lambda i: "/".join(i.split("/")[:2])  # alertname/namespace
    kinds = {kind(i) for i in ref}
    for i, (s, d) in sorted(seen("vmalert", t1, t2).items()):
        if i not in ref and (s == "firing" or (d > 4 and kind(i) not in kinds)):
            print(f"{i} {s} ({d:.0f} s)")
PY
seen() { python3 "$work/alerts.py" "$work/alerts.jsonl" seen "$excluded" "$@"; }
false_alerts() { python3 "$work/alerts.py" "$work/alerts.jsonl" false "$excluded" "$@"; }

vmq() { # QUERY -> "labels value" lines, as victoria-metrics answers vmalert
  curl -s "$vm/api/v1/query" --data-urlencode "query=$1" |
    jq -r '.data.result[] | "\(.metric | del(.__name__) | to_entries | map("\(.key)=\(.value)") | join(" ")) \(.value[1])"'
}
vmcount() { curl -s "$vm/api/v1/query" --data-urlencode "query=count($1)" | jq -r '.data.result[0].value[1] // 0'; }
# The active alerts (pending or firing) of vmalert or the reference in NAMESPACE, as
# "Name/db state" lines.
active() { # vmalert|prometheus NAMESPACE
  local url
  if [ "$1" = vmalert ]; then url="http://127.0.0.1:$VMALERT_PORT/api/v1/alerts"; else url="http://127.0.0.1:$prom_port/api/v1/alerts"; fi
  curl -s "$url" | jq -r --arg ns "$2" --arg ex "$excluded" '.data.alerts[] |
    (.labels.alertname) as $n | select($n != $ex and .labels.namespace == $ns) |
    "\($n)/\(.labels.db // "-") \(.state)"' | sort -u
}
# The alertnames/db paged (firing notifications) for NAMESPACE since the time FROM.
paged() { # NAMESPACE FROM
  [ -f "$work/fleet/notifications.jsonl" ] || return 0
  jq -r --arg ns "$1" --argjson from "$2" --arg ex "$excluded" 'select(.received_at >= $from) |
    .alerts[] | select(.status == "firing" and .labels.namespace == $ns and .labels.alertname != $ex) |
    "\(.labels.alertname)/\(.labels.db // "-")"' "$work/fleet/notifications.jsonl" | sort -u
}
# How the quorum records moved in NAMESPACE since FROM, in victoria-metrics (what vmalert wrote)
# and in the reference: each series' value changes, one line each. What a failed verdict shows.
quorum_timeline() { # NAMESPACE FROM
  local r url q
  for r in "vmalert $vm" "reference http://127.0.0.1:$prom_port"; do
    url=${r#* }
    for q in failure_tolerance:count live_members:count quorum:size; do
      echo "  $1, ${r%% *}, ovn_raft_cluster:$q (time since the break: value)"
      curl -s "$url/api/v1/query_range" --data-urlencode "query=ovn_raft_cluster:$q{namespace=\"$1\"}" \
        --data-urlencode "start=$2" --data-urlencode "end=$(date +%s)" --data-urlencode step=1s |
        jq -r --argjson from "$2" '.data.result[] | "    \(.metric.db): " + ([.values as $v |
          range(0; $v | length) | select(. == 0 or $v[.][1] != $v[. - 1][1]) |
          "+\(($v[.][0] - $from) | floor)s \($v[.][1])"] | join(", "))'
    done
  done
}
both() { local n; for n in "$@"; do echo "$n/OVN_Northbound"; echo "$n/OVN_Southbound"; done | sort; }
firing_exactly() { # SRC NAMESPACE EXPECTED: every expected alert firing, no other active
  [ "$(active "$1" "$2")" = "$(sed 's/$/ firing/' <<<"$3")" ]
}

say "== healthy: waiting for the records and for no alert"
deadline=$((SECONDS + 260))
while :; do
  complete=1
  [ "$(vmcount 'ovn_raft_cluster:reporters:count == 3')" = 4 ] || complete=0
  [ "$(vmcount 'ovn_raft_cluster:failure_tolerance:count == 1')" = 4 ] || complete=0
  [ "$(vmcount 'ovn_raft_cluster_member:alive:bool')" = 12 ] || complete=0
  for ns in east west; do [ -z "$(active vmalert $ns)" ] || complete=0; done
  # The alerts evaluate each timestamp ALERTS_DELAY late; the first ones they evaluate come
  # before every level of records had its first scrapes (a cold start, not a verdict).
  [ "$(date +%s)" -ge $((STARTED_AT + ALERTS_DELAY + 30)) ] || complete=0
  [ "$complete" = 1 ] && break
  [ "$SECONDS" -lt "$deadline" ] || {
    vmq 'ovn_raft_cluster:reporters:count'; active vmalert east; active vmalert west
    fail "the pipeline never reached a complete, quiet view of two healthy clusters"
  }
  sleep 1
done
t_healthy=$(date +%s.%N)
say "records complete and no alert in vmalert ($(since "$t0") s after the start)"
echo "  before that, vmalert showed (start-up, the records still filling in):"
seen vmalert "$t0" "$t_healthy" | sed 's/^/    /'
echo "  and the reference:"
seen prometheus "$t0" "$t_healthy" | sed 's/^/    /'
# Each vmagent scrapes part of every cluster: the split is real.
read -r -a agent_ports <<<"$AGENT_PORTS"
for n in 0 1; do
  for ns in east west; do
    k=$(curl -s "http://127.0.0.1:${agent_ports[$n]}/api/v1/targets" |
      jq --arg ns "$ns" '[.data.activeTargets[] | select(.labels.namespace == $ns and .health == "up")] | length')
    echo "  vmagent $n scrapes $k of $ns's 3 exporters"
    [ "$k" -ge 1 ] && [ "$k" -le 2 ] || fail "vmagent $n scrapes $k of $ns's exporters: no split"
  done
done
sleep 30
t_window=$(date +%s.%N)
say "healthy window over (30 s)"
got=$(seen vmalert "$t_healthy" "$t_window")
[ -z "$got" ] || fail "alerts in vmalert while healthy: $got"
got=$(seen prometheus "$t_healthy" "$t_window")
[ -z "$got" ] || fail "alerts in the reference Prometheus while healthy: $got"
got=$(paged east 0; paged west 0)
[ -z "$got" ] || fail "notifications while healthy: $got"
[ -z "$(vmq 'ovn_raft_cluster_member:silent:named_by or ovn_raft_cluster_member:stale_suspect:score')" ] ||
  fail "silent or stale members recorded while healthy"
echo "  no alert in vmalert, in the reference or at the Alertmanager"

status_id() { "$root/scripts/raft-cluster.sh" status "$work/$1" "$2" "$3" | awk '/^Server ID:/ {print $3}'; }
follower() { if [ "$("$root/scripts/raft-cluster.sh" leader "$work/$1" nb)" = 3 ]; then echo 2; else echo 3; fi; }
east_m=$(follower east)
west_m=$(follower west)
stale_ids=$( (status_id east "$east_m" nb; status_id east "$east_m" sb) | sort | tr '\n' ' ')
down_ids=$( (status_id west "$west_m" nb; status_id west "$west_m" sb) | sort | tr '\n' ' ')
say "== east: member $east_m restarted with a fresh database (its IDs $stale_ids stay); west: member $west_m killed ($down_ids)"
t_break=$(date +%s.%N)
"$root/scripts/raft-cluster.sh" restart-fresh "$work/east" "$east_m" >>"$work/east.log" 2>&1
"$root/scripts/raft-cluster.sh" kill "$work/west" "$west_m"
want_east=$(both OVNRaftStaleMember OVNRaftHostClaimedByMultipleIDs OVNRaftTooManyMembers OVNRaftQuorumAtRisk)
want_west=$(both OVNRaftQuorumAtRisk OVNRaftMemberNotReporting OVNRaftDatabaseUnreadable)
declare -A at=()
mark() { [ -n "${at[$1]:-}" ] || { at[$1]=$(since "$t_break"); say "$1 (+${at[$1]} s)"; }; }
deadline=$((SECONDS + 300))
while [ "${#at[@]}" -lt 8 ]; do
  [ "$(vmq 'ovn_raft_cluster_member:stale_suspect:named_by{namespace="east"}' |
    sed -E 's/.*member_id=([^ ]+).*/\1/' | sort | tr '\n' ' ')" = "$stale_ids" ] && mark "east: the records name the stale IDs"
  [ "$(vmq 'ovn_raft_cluster_member:silent:named_by{namespace="west"}' |
    sed -E 's/.*member_id=([^ ]+).*/\1/' | sort | tr '\n' ' ')" = "$down_ids" ] &&
    [ "$(vmcount 'ovn_raft_cluster:failure_tolerance:count{namespace="west"} == 0')" = 2 ] &&
    mark "west: the records name the silent IDs, failures tolerated 0"
  firing_exactly vmalert east "$want_east" && mark "east: vmalert fires exactly the expected alerts"
  firing_exactly vmalert west "$want_west" && mark "west: vmalert fires exactly the expected alerts"
  firing_exactly prometheus east "$want_east" && mark "east: the reference fires exactly the expected alerts"
  firing_exactly prometheus west "$want_west" && mark "west: the reference fires exactly the expected alerts"
  [ "$(paged east "$t_break")" = "$want_east" ] && mark "east: the Alertmanager paged the expected alerts"
  [ "$(paged west "$t_break")" = "$want_west" ] && mark "west: the Alertmanager paged the expected alerts"
  [ "$SECONDS" -lt "$deadline" ] || break
  sleep 1
done
for ns in east west; do
  echo "  $ns, vmalert:"; active vmalert $ns | sed 's/^/    /'
  echo "  $ns, the reference:"; active prometheus $ns | sed 's/^/    /'
  echo "  $ns, paged:"; paged $ns "$t_break" | sed 's/^/    /'
done
fail_since_break() { local ns; for ns in east west; do quorum_timeline "$ns" "$t_break"; done; fail "$@"; }
[ "${#at[@]}" = 8 ] || fail_since_break "not every verdict was reached in 300 s"
# Alertmanager's next group interval: no other page follows.
sleep 12
[ "$(paged east "$t_break")" = "$want_east" ] || fail_since_break "east: other pages: $(paged east "$t_break" | tr '\n' ' ')"
[ "$(paged west "$t_break")" = "$want_west" ] || fail_since_break "west: other pages: $(paged west "$t_break" | tr '\n' ' ')"
t_end=$(date +%s.%N)

echo "== what vmalert and the reference showed since the break (pending or firing)"
echo "  vmalert:"; seen vmalert "$t_break" "$t_end" | sed 's/^/    /'
echo "  the reference:"; seen prometheus "$t_break" "$t_end" | sed 's/^/    /'
got=$(false_alerts "$t_break" "$t_end")
[ -z "$got" ] || fail_since_break "vmalert raised alerts the reference never did: $(tr '\n' ';' <<<"$got")"
echo "  no alert in vmalert that the reference did not raise: none firing, none pending beyond two evaluations"
echo "PASS"
