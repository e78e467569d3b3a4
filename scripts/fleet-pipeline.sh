#!/usr/bin/env bash
# A fleet's pipeline on VictoriaMetrics, on loopback: two vmagents that share the exporter
# targets between them (the members of one Raft cluster always on different shards), one
# single-node victoria-metrics they remote-write into, vmalert evaluating this repository's
# rules and alerts against it (records written back, alert state restored from it), a real
# Alertmanager with the shipped alerts/alertmanager/alertmanager.yml (its receivers pointed at
# a webhook receiver here, shorter group timings) and that webhook, which appends every
# notification to DIR/notifications.jsonl. Used by tests/integration/fleet_pipeline_test.sh and
# `scripts/demo.sh fleet`, so that both run the same pipeline.
#
#   fleet-pipeline.sh start DIR TARGET...   start; TARGET is NAMESPACE/ORDINAL=HOST:PORT (an
#                                           exporter of pod ovn-central-ORDINAL in NAMESPACE)
#   fleet-pipeline.sh stop DIR              stop every process start started
#   fleet-pipeline.sh env DIR               the ports: VM_PORT VMALERT_PORT AM_PORT AGENT_PORTS
#   fleet-pipeline.sh summary DIR           the records' verdicts and vmalert's alerts
#
# Environment (start):
#   VM_BIN_DIR     victoria-metrics, vmagent and vmalert (default: scripts/monitoring-releases.sh
#                  bin victoriametrics)
#   AM_BIN_DIR     prometheus-alertmanager (default: monitoring-releases.sh bin alertmanager,
#                  else the one on PATH)
#   OVN_RAFT_FOR_SPEEDUP=N   the alerts' for: durations divided by N, as prometheus-demo.sh does
#   OVN_RAFT_FOR_MIN=S       and none shorter than S seconds (default 1)
#   FLEET_INTERVAL           scrape and evaluation interval (default 2s)
#   FLEET_VM_FLAGS, FLEET_VMALERT_FLAGS   more flags for victoria-metrics and vmalert (e.g. a
#                  -search.latencyOffset with the matching -rule.evalDelay)
#   FLEET_RULES    the recording rules file (default alerts/ovn-raft-rules.yaml)
#   FLEET_LAYOUT   staged (default): vmalert evaluates the rules regrouped by
#                  scripts/vmalert-staged-rules.py, one group per dependency level, each a
#                  FLEET_STAGE (default 10s) later than the one below; shipped: the shipped
#                  single group, whose chained records vmalert reads before they are written
#   FLEET_PORTS    "VM VMALERT AM WEBHOOK AGENT0 AGENT1" fixed ports; free_port (lib.sh) otherwise
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$root/scripts/lib.sh"

die() { echo "fleet-pipeline: $*" >&2; exit 1; }

bin_dir() { # KIND ENV_VALUE: a directory of that release's binaries
  if [ -n "$2" ]; then echo "$2"; return; fi
  [ -f "$root/scripts/monitoring-releases.sh" ] && bash "$root/scripts/monitoring-releases.sh" bin "$1"
}

wait_http() { # URL NAME LOG: until URL answers 200, 20 s at most
  local deadline=$((SECONDS + 20))
  while [ "$SECONDS" -lt "$deadline" ]; do
    curl -sf -o /dev/null "$1" && return 0
    sleep 0.2
  done
  tail -20 "$3" >&2 || true
  die "$2 did not start (see $3)"
}

spawn() { # NAME COMMAND...: in the background, its pid in DIR/NAME.pid, its output in DIR/NAME.log
  local name=$1
  shift
  "$@" >>"$dir/$name.log" 2>&1 &
  echo $! >"$dir/$name.pid"
}

# The vmagent of shard N (0 or 1): every target is listed, each shard keeps those whose pod
# ordinal has its parity. Three consecutive ordinals always span both shards, so no shard sees
# a whole cluster: the rules can only be right where every shard's series meet.
agent_config() { # N TARGET...
  local n=$1 t ns ord addr regex
  shift
  if [ "$n" = 0 ]; then regex='.*-[02468]'; else regex='.*-[13579]'; fi
  {
    echo "global:"
    echo "  scrape_interval: $interval"
    # A whole interval: on a loaded machine a slow answer is not a down exporter.
    echo "  scrape_timeout: $interval"
    echo "scrape_configs:"
    echo "  - job_name: ovn-raft-exporter"
    echo "    static_configs:"
    for t in "$@"; do
      ns=${t%%/*} ord=${t#*/} addr=${t#*=}
      ord=${ord%%=*}
      echo "      - targets: ['$addr']"
      echo "        labels: {namespace: '$ns', pod: 'ovn-central-$ord'}"
    done
    echo "    relabel_configs:"
    echo "      - source_labels: [pod]"
    echo "        regex: '$regex'"
    echo "        action: keep"
  } >"$dir/vmagent-$n.yml"
}

start() {
  dir=$1
  shift
  [ $# -gt 0 ] || die "start: no targets"
  interval=${FLEET_INTERVAL:-2s}
  local vm_bin am_bin
  vm_bin=$(bin_dir victoriametrics "${VM_BIN_DIR:-}")
  [ -x "${vm_bin:-/nonexistent}/vmalert" ] || die "no VictoriaMetrics binaries (set VM_BIN_DIR)"
  am_bin=$(bin_dir alertmanager "${AM_BIN_DIR:-}")
  [ -n "$am_bin" ] || am_bin=$(dirname "$(command -v prometheus-alertmanager)")
  [ -x "$am_bin/prometheus-alertmanager" ] || die "no prometheus-alertmanager (set AM_BIN_DIR)"
  mkdir -p "$dir"
  claim_ports
  local ports
  if [ -n "${FLEET_PORTS:-}" ]; then
    read -r -a ports <<<"$FLEET_PORTS"
  else
    ports=("$(free_port)" "$(free_port)" "$(free_port)" "$(free_port)" "$(free_port)" "$(free_port)")
  fi
  cat >"$dir/env" <<EOF
VM_PORT=${ports[0]}
VMALERT_PORT=${ports[1]}
AM_PORT=${ports[2]}
WEBHOOK_PORT=${ports[3]}
AGENT_PORTS="${ports[4]} ${ports[5]}"
STARTED_AT=$(date +%s)
EOF
  # shellcheck disable=SC1091
  . "$dir/env"
  local vm="http://127.0.0.1:$VM_PORT"

  # The rules as shipped and the alerts with their for: shortened on request (copies in DIR),
  # every group at the pipeline's interval.
  one_interval "${FLEET_RULES:-$root/alerts/ovn-raft-rules.yaml}" "$dir/rules.yaml"
  speed_up_for_durations "$root/alerts/ovn-raft-alerts.yaml" "${OVN_RAFT_FOR_SPEEDUP:-1}" "$dir/alerts.yaml" \
    "${OVN_RAFT_FOR_MIN:-1}"
  local rule_flags=(-rule="$dir/rules.yaml" -rule="$dir/alerts.yaml")
  if [ "${FLEET_LAYOUT:-staged}" = staged ]; then
    # The base delay is vmalert's -rule.evalDelay default, which matches victoria-metrics'
    # -search.latencyOffset default: raw samples are complete by then.
    python3 "$root/scripts/vmalert-staged-rules.py" "$dir/rules.yaml" "$dir/alerts.yaml" \
      --interval "$interval" --base 30s --stage "${FLEET_STAGE:-10s}" >"$dir/staged.yaml"
    rule_flags=(-rule="$dir/staged.yaml")
  fi
  # When the alerts evaluate the first scrapes: what waits for verdicts needs it.
  awk '/eval_delay:/ {d = $2} END {sub(/s$/, "", d); print "ALERTS_DELAY=" (d == "" ? 30 : d)}' \
    "${rule_flags[@]/#-rule=/}" >>"$dir/env"

  # The webhook: one JSON line per notification, with the receiver's path.
  spawn webhook python3 "$root/scripts/webhook-receiver.py" "$WEBHOOK_PORT" "$dir/notifications.jsonl"

  # Alertmanager: the shipped routes and inhibit rules, receivers on the webhook, group timings
  # short enough to see a page within the for: durations sped up above.
  python3 - "$root/alerts/alertmanager/alertmanager.yml" "$WEBHOOK_PORT" "$dir/alertmanager.yml" <<'PY'
import re, sys, yaml
src, port, out = sys.argv[1], sys.argv[2], sys.argv[3]
c = yaml.safe_load(open(src))
c["route"].update(group_wait="5s", group_interval="10s", repeat_interval="1h")
for r in c["receivers"]:
    for w in r.get("webhook_configs", []):
        w["url"] = re.sub(r"^http://[^/]+", f"http://127.0.0.1:{port}", w["url"])
yaml.safe_dump(c, open(out, "w"), sort_keys=False)
PY
  spawn alertmanager "$am_bin/prometheus-alertmanager" --config.file="$dir/alertmanager.yml" \
    --storage.path="$dir/am-data" --web.listen-address="127.0.0.1:$AM_PORT" --cluster.listen-address= \
    --log.level=warn

  # shellcheck disable=SC2086 # FLEET_VM_FLAGS: flags, split on purpose
  spawn victoria-metrics "$vm_bin/victoria-metrics" -storageDataPath="$dir/vm-data" -retentionPeriod=1d \
    -httpListenAddr="127.0.0.1:$VM_PORT" -loggerLevel=WARN ${FLEET_VM_FLAGS:-}
  wait_http "$vm/health" victoria-metrics "$dir/victoria-metrics.log"

  local n agent_ports
  read -r -a agent_ports <<<"$AGENT_PORTS"
  for n in 0 1; do
    agent_config "$n" "$@"
    spawn "vmagent-$n" "$vm_bin/vmagent" -promscrape.config="$dir/vmagent-$n.yml" \
      -promscrape.config.strictParse -remoteWrite.url="$vm/api/v1/write" \
      -remoteWrite.tmpDataPath="$dir/vmagent-$n-data" -httpListenAddr="127.0.0.1:${agent_ports[$n]}" \
      -loggerLevel=WARN
  done

  # A record must become queryable within a stage: flush it sooner than the default 2s.
  # shellcheck disable=SC2086 # FLEET_VMALERT_FLAGS: flags, split on purpose
  spawn vmalert "$vm_bin/vmalert" "${rule_flags[@]}" -remoteWrite.flushInterval=500ms \
    -datasource.url="$vm" -remoteWrite.url="$vm" -remoteRead.url="$vm" \
    -notifier.url="http://127.0.0.1:$AM_PORT" -evaluationInterval="$interval" \
    -httpListenAddr="127.0.0.1:$VMALERT_PORT" -loggerLevel=WARN ${FLEET_VMALERT_FLAGS:-}

  wait_http "http://127.0.0.1:$AM_PORT/-/ready" alertmanager "$dir/alertmanager.log"
  for n in 0 1; do wait_http "http://127.0.0.1:${agent_ports[$n]}/health" "vmagent-$n" "$dir/vmagent-$n.log"; done
  wait_http "http://127.0.0.1:$VMALERT_PORT/health" vmalert "$dir/vmalert.log"
}

stop() {
  local f pid
  for f in "$1"/*.pid; do
    [ -e "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$f"
  done
}

query() { # QUERY -> "labels value" lines, from victoria-metrics
  curl -s "http://127.0.0.1:$VM_PORT/api/v1/query" --data-urlencode "query=$1" |
    jq -r '.data.result[] | "\(.metric | del(.__name__) | to_entries | map("\(.key)=\(.value)") | join(" ")) \(.value[1])"'
}

summary() {
  # shellcheck disable=SC1091
  . "$1/env"
  echo "  per cluster (namespace, db, cluster_id), as vmalert recorded it in victoria-metrics:"
  query 'ovn_raft_cluster:reporters:count' | sed 's/^/    reporters: /'
  query 'ovn_raft_cluster:leaders:count' | sed 's/^/    leaders: /'
  query 'ovn_raft_cluster:failure_tolerance:count' | sed 's/^/    failures tolerated: /'
  query 'ovn_raft_cluster_member:silent:named_by' | sed 's/^/    not reporting (named by): /'
  query 'ovn_raft_cluster_member:stale_suspect:score' | sed 's/^/    STALE SUSPECT (score): /'
  echo "  alerts (vmalert):"
  local alerts
  alerts=$(curl -s "http://127.0.0.1:$VMALERT_PORT/api/v1/alerts" |
    jq -r '.data.alerts[] | "    \(.name) \(.labels.namespace // "-") \(.labels.db // "-") (\(.state))"' | sort -u)
  echo "${alerts:-    none}"
}

case "${1:-}" in
  start) start "$2" "${@:3}" ;;
  stop) stop "$2" ;;
  env) cat "$2/env" ;;
  summary) summary "$2" ;;
  *) echo "usage: fleet-pipeline.sh start DIR NAMESPACE/ORDINAL=HOST:PORT... | stop DIR | env DIR | summary DIR" >&2; exit 2 ;;
esac
