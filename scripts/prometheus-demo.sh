#!/usr/bin/env bash
# A real Prometheus (Debian's package) scraping exporters, with this repository's recording
# rules and alerts, evaluated every 2 s so that the demo and the end-to-end test see changes fast:
# every group, the slow ones too (copies of the rules and alerts in DIR without their longer
# interval).
# OVN_RAFT_FOR_SPEEDUP=N (start): the alerts' for: durations divided by N (a copy in DIR), so
# that a test can watch a whole for: window fire; the recording rules are otherwise as shipped.
# OVN_RAFT_MIXIN_CONFIG=JSONNET (start): the alerts rendered from mixin/ with this object merged
# into its _config, as a user overrides it (e.g. '{filesystemPredictWindow: "30s"}').
# OVN_RAFT_ALERTMANAGER=HOST:PORT (start, retarget): send the alerts to that Alertmanager.
#
#   prometheus-demo.sh start DIR PORT EXPORTER_URL...   start; pid in DIR/prometheus.pid
#   prometheus-demo.sh retarget DIR EXPORTER_URL...     scrape these instead (reloads)
#   prometheus-demo.sh stop DIR
#   prometheus-demo.sh summary PORT                     the rules' verdicts and firing alerts
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$root/scripts/lib.sh"

alerts_file() { # DIR: the shipped alerts, or DIR's own copy when start made one
  if [ -f "$1/alerts.yaml" ]; then echo "$1/alerts.yaml"; else echo "$root/alerts/ovn-raft-alerts.yaml"; fi
}

mixin_alerts() { # DIR CONFIG: DIR/alerts.yaml rendered from the mixin with CONFIG in its _config
  jsonnet -J "$root/mixin" --ext-code "config=$2" \
    -e '((import "mixin.libsonnet") + { _config+:: std.extVar("config") }).prometheusAlerts' |
    python3 -c 'import json, sys, yaml; yaml.safe_dump(json.load(sys.stdin), sys.stdout, sort_keys=False, width=1000)' \
      >"$1/alerts.yaml"
}

speed_up_alerts() { # DIR N: DIR/alerts.yaml (from alerts_file) with every for: divided by N
  # (and every group at the global interval)
  speed_up_for_durations "$(alerts_file "$1")" "$2" "$1/alerts.yaml"
}

write_config() { # DIR EXPORTER_URL...
  local dir=$1
  shift
  local targets=""
  for url in "$@"; do targets+="'${url#http://}', "; done
  local alerting=""
  [ -z "${OVN_RAFT_ALERTMANAGER:-}" ] ||
    alerting="alerting: {alertmanagers: [{static_configs: [{targets: ['$OVN_RAFT_ALERTMANAGER']}]}]}"
  cat >"$dir/prometheus.yml" <<YAML
global:
  scrape_interval: 2s
  scrape_timeout: 1s
  evaluation_interval: 2s
$alerting
rule_files:
  - $dir/rules.yaml
  - $(alerts_file "$dir")
scrape_configs:
  - job_name: ovn-raft-exporter
    static_configs:
      - targets: [${targets%, }]
        labels:
          namespace: demo
YAML
}

start() {
  local dir=$1 port=$2
  shift 2
  mkdir -p "$dir/data"
  rm -f "$dir/alerts.yaml"
  [ -z "${OVN_RAFT_MIXIN_CONFIG:-}" ] || mixin_alerts "$dir" "$OVN_RAFT_MIXIN_CONFIG"
  if [ "${OVN_RAFT_FOR_SPEEDUP:-1}" = 1 ]; then
    one_interval "$(alerts_file "$dir")" "$dir/alerts.yaml"
  else
    speed_up_alerts "$dir" "$OVN_RAFT_FOR_SPEEDUP"
  fi
  one_interval "$root/alerts/ovn-raft-rules.yaml" "$dir/rules.yaml"
  write_config "$dir" "$@"
  prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
    --web.listen-address="127.0.0.1:$port" --log.level=warn >>"$dir/prometheus.log" 2>&1 &
  echo $! >"$dir/prometheus.pid"
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/-/ready" >/dev/null && return 0
    sleep 0.1
  done
  echo "prometheus did not start; see $dir/prometheus.log" >&2
  return 1
}

query() { # port promql -> "labels value" lines
  curl -s "http://127.0.0.1:$1/api/v1/query" --data-urlencode "query=$2" |
    jq -r '.data.result[] | "\(.metric | del(.__name__) | to_entries | map("\(.key)=\(.value)") | join(" ")) \(.value[1])"'
}

summary() {
  local port=$1
  echo "  per cluster (namespace, db, cluster_id):"
  query "$port" 'ovn_raft_cluster:reporters:count' | sed 's/^/    reporters: /'
  query "$port" 'ovn_raft_cluster:views_agree:bool' | sed 's/^/    views agree: /'
  query "$port" 'ovn_raft_cluster:leaders:count' | sed 's/^/    leaders: /'
  query "$port" 'ovn_raft_cluster:failure_tolerance:count' | sed 's/^/    failures tolerated: /'
  query "$port" 'ovn_raft_cluster_member:silent:named_by' | sed 's/^/    not reporting (named by): /'
  query "$port" 'ovn_raft_cluster_member:stale_suspect:score' | sed 's/^/    STALE SUSPECT (score): /'
  query "$port" 'ovn_raft_cluster_member:unexpected_host:named_by' | sed 's/^/    on an unexpected host: /'
  query "$port" 'ovn_raft_db_host:missing_member:bool' | sed 's/^/    expected host without a member: /'
  query "$port" 'label_replace(ovn_raft_cluster_reporter_member:missing:info, "difference", "lacks", "", "")
    or label_replace(ovn_raft_cluster_reporter_member:extra:info, "difference", "lists extra", "", "")
    or label_replace(ovn_raft_cluster_reporter_member:moved:info, "difference", "moves", "", "")' |
    sed 's/^/    view differs from the majority: /'
  echo "  alerts:"
  local alerts
  alerts=$(query "$port" 'ALERTS' | sed -E 's/^.*alertname=([^ ]+).*alertstate=([^ ]+).*$/    \1 (\2)/' | sort -u)
  echo "${alerts:-    none}"
}

case "${1:-}" in
  start) start "$2" "$3" "${@:4}" ;;
  retarget) write_config "$2" "${@:3}"; kill -HUP "$(cat "$2/prometheus.pid")" ;;
  stop) [ -f "$2/prometheus.pid" ] && kill "$(cat "$2/prometheus.pid")" 2>/dev/null; rm -f "$2/prometheus.pid" ;;
  summary) summary "$2" ;;
  *) echo "usage: prometheus-demo.sh start DIR PORT URL... | stop DIR | summary PORT" >&2; exit 2 ;;
esac
