#!/usr/bin/env bash
# One incident, one page, end to end: a real 3-member NB+SB Raft cluster, the built exporters,
# the real Prometheus with the shipped rules and alerts (for: divided by 30), and the real
# Alertmanager with the shipped alerts/alertmanager/alertmanager.yml (its receivers pointed at
# a webhook receiver here, shorter group timings). Two of the three members are killed: the
# webhook must get exactly one critical notification per database (OVNRaftQuorumLost), and no
# notification for an alert the inhibit rules silence. Then every rule in the same
# Alertmanager, through its API: each target it names is inhibited by its source with equal
# labels, and the same target alone in another namespace is not. It also checks that the
# fragment and the AlertmanagerConfig hold the same rules as the example, and amtool accepts it.
#
#   alertmanager-inhibit.sh [BUILD_DIR]     exit 0 on success; prints every notification
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
. "$root/scripts/lib.sh"
# A port block of our own where the test suite hands them out (scripts/lib.sh claim_ports).
if declare -F claim_ports >/dev/null; then claim_ports; fi
build=${1:-${BUILD_DIR:-$root/build}}
bin="$build/exporter/ovn-raft-exporter"
# OVN_RAFT_AM_DIR: another directory with the three files (to show the test fails without the rules).
am_dir=${OVN_RAFT_AM_DIR:-$root/alerts/alertmanager}
work=$(mktemp -d /tmp/ovn-raft-am.XXXXXX)
fail() { echo "FAIL: $*" >&2; exit 1; }
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  "$root/scripts/prometheus-demo.sh" stop "$work/prometheus" 2>/dev/null || true
  "$root/scripts/raft-cluster.sh" stop "$work/cluster" >/dev/null 2>&1 || true
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
[ -x "$bin" ] || fail "no exporter at $bin (ninja -C $build ovn-raft-exporter)"
command -v prometheus-alertmanager >/dev/null || fail "no prometheus-alertmanager (scripts/install-deps.sh)"

echo "== amtool check-config on the shipped example"
amtool check-config "$am_dir/alertmanager.yml" || fail "amtool rejects alertmanager.yml"

webhook_port=$(free_port)
am_port=$(free_port)
prom_port=$(free_port)
exp_port=$(free_port 3)

echo "== the same inhibit rules in alertmanager.yml, inhibit-rules.yml and alertmanagerconfig.yaml;"
echo "   an Alertmanager config for the test: the shipped one, receivers on the webhook, short timings"
python3 - "$am_dir" "$webhook_port" "$work/alertmanager.yml" <<'PY'
import re, sys, yaml
d, port, out = sys.argv[1], sys.argv[2], sys.argv[3]
example = yaml.safe_load(open(f"{d}/alertmanager.yml"))
fragment = yaml.safe_load(open(f"{d}/inhibit-rules.yml"))["inhibit_rules"]
amc = yaml.safe_load(open(f"{d}/alertmanagerconfig.yaml"))
if example["inhibit_rules"] != fragment:
    sys.exit("alertmanager.yml and inhibit-rules.yml hold different inhibit rules")
def matchers(ms):
    return [f'{m["name"]}{m.get("matchType", "=")}"{m["value"]}"' for m in ms]
translated = [{"source_matchers": matchers(r["sourceMatch"]), "target_matchers": matchers(r["targetMatch"]),
               "equal": r["equal"]} for r in amc["spec"]["inhibitRules"]]
if translated != fragment:
    sys.exit("alertmanagerconfig.yaml and inhibit-rules.yml hold different inhibit rules")
example["route"].update(group_wait="10s", group_interval="10s", repeat_interval="1h")
for r in example["receivers"]:
    for w in r.get("webhook_configs", []):
        w["url"] = re.sub(r"^http://[^/]+", f"http://127.0.0.1:{port}", w["url"])
yaml.safe_dump(example, open(out, "w"), sort_keys=False)
print(f"  {len(fragment)} inhibit rules, identical in the three files")
PY
amtool check-config "$work/alertmanager.yml" >/dev/null || fail "amtool rejects the test's config"

echo "== webhook receiver on 127.0.0.1:$webhook_port"
python3 "$root/scripts/webhook-receiver.py" "$webhook_port" "$work/notifications.jsonl" >"$work/webhook.log" 2>&1 &
pids+=($!)

echo "== Alertmanager on 127.0.0.1:$am_port"
prometheus-alertmanager --config.file="$work/alertmanager.yml" --storage.path="$work/am-data" \
  --web.listen-address="127.0.0.1:$am_port" --cluster.listen-address= --log.level=warn \
  >"$work/alertmanager.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$am_port/-/ready" >/dev/null && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$am_port/-/ready" >/dev/null || { cat "$work/alertmanager.log"; fail "alertmanager did not start"; }

echo "== a 3-member NB+SB cluster, one exporter per member"
"$root/scripts/raft-cluster.sh" start "$work/cluster" 3 >"$work/cluster.log" 2>&1 ||
  { cat "$work/cluster.log"; fail "the cluster did not start"; }
urls=()
for m in 1 2 3; do
  start_exporter "$bin" "$((exp_port + m - 1))" "$work/cluster/m$m" --cluster.expected-members=3 \
    2>>"$work/exporter-$m.log"
  pids+=($!)
  urls+=("http://127.0.0.1:$((exp_port + m - 1))")
done
OVN_RAFT_FOR_SPEEDUP=30 OVN_RAFT_ALERTMANAGER="127.0.0.1:$am_port" \
  "$root/scripts/prometheus-demo.sh" start "$work/prometheus" "$prom_port" "${urls[@]}"

firing() { # the firing alerts: "name firing db instance member_id" lines
  prom_alerts "$prom_port" 'ALERTS{alertstate="firing"}' db instance member_id
}
three_reporters() { [ "$(prom_value "$prom_port" 'count(ovn_raft_cluster:reporters:count == 3)')" = 2 ]; }
wait_for 60 "three reporters per database in the rules" three_reporters
sleep 5
before=0
[ ! -f "$work/notifications.jsonl" ] || before=$(wc -l <"$work/notifications.jsonl")
echo "  healthy; firing: $(firing | tr '\n' ';')"

echo "== killing members 2 and 3 (both databases)"
"$root/scripts/raft-cluster.sh" kill "$work/cluster" 2
"$root/scripts/raft-cluster.sh" kill "$work/cluster" 3
# Wait for the symptoms a quorum loss raises (for: as shipped / 30), then for Alertmanager to
# flush every group they form (group_wait, group_interval).
want='OVNRaftDatabaseUnreadable OVNRaftMemberNotReporting OVNRaftNoLeader OVNRaftQuorumLost'
for _ in $(seq 90); do
  names=$(firing | awk '{print $1}' | sort -u | tr '\n' ' ')
  ok=1
  for w in $want; do [[ " $names" == *" $w "* ]] || ok=0; done
  [ "$ok" = 1 ] && break
  sleep 2
done
echo "  firing in Prometheus:"
firing | sed 's/^/    /'
[ "$ok" = 1 ] || fail "Prometheus never fired all of: $want"
sleep 35

echo "== notifications the webhook received"
python3 - "$work/notifications.jsonl" "$before" "$am_dir/inhibit-rules.yml" "$(firing | wc -l)" <<'PY'
import json, re, sys, yaml
path, before, rules_file, n_firing = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
try:
    lines = open(path).read().splitlines()[before:]
except FileNotFoundError:
    lines = []
notes = [json.loads(l) for l in lines]
silenced = set()
for r in yaml.safe_load(open(rules_file))["inhibit_rules"]:
    if r["source_matchers"] == ['alertname="OVNRaftQuorumLost"']:
        silenced |= set(re.fullmatch(r'alertname=~"(.*)"', r["target_matchers"][0])[1].split("|"))
critical, warning, bad = {}, [], []
for n in notes:
    if n["status"] != "firing":
        continue
    for a in n["alerts"]:
        if a["status"] != "firing":
            continue
        name, db, sev = a["labels"]["alertname"], a["labels"].get("db", "-"), a["labels"].get("severity")
        print(f"  {n['receiver_path']:9} {sev:8} {name} {db} "
              + " ".join(f"{k}={v}" for k, v in sorted(a["labels"].items()) if k in ("instance", "member_id", "server_id")))
        if name in silenced:
            bad.append(f"{name} {db}: should be silenced by OVNRaftQuorumLost")
    names = {a["labels"]["alertname"] for a in n["alerts"]}
    sev = {a["labels"].get("severity") for a in n["alerts"]}
    db = n["groupLabels"].get("db", "-")
    if "critical" in sev:
        critical.setdefault(db, []).append(sorted(names))
    else:
        warning.append(sorted(names))
print(f"  {len(notes)} notifications ({sum(len(v) for v in critical.values())} critical, {len(warning)} warning)"
      f" for {n_firing} alerts firing in Prometheus")
for db in ("OVN_Northbound", "OVN_Southbound"):
    got = critical.get(db, [])
    if got != [["OVNRaftQuorumLost"]]:
        bad.append(f"{db}: critical notifications {got}, want exactly one of OVNRaftQuorumLost")
extra = set(critical) - {"OVN_Northbound", "OVN_Southbound"}
if extra:
    bad.append(f"critical notifications for {sorted(extra)}")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY

echo "== every inhibit rule in the real Alertmanager: each target it names is inhibited by its"
echo "   source with the equal labels, and not in another namespace (alerts posted to its API)"
python3 - "$am_port" "$am_dir/inhibit-rules.yml" <<'PY'
import json, re, sys, time, urllib.request, yaml
port, rules_file = sys.argv[1], sys.argv[2]
api = f"http://127.0.0.1:{port}/api/v2/alerts"
labels = {"db": "OVN_Northbound", "cluster_id": "c0", "instance": "i0", "server_id": "s0", "severity": "warning"}
rules = yaml.safe_load(open(rules_file))["inhibit_rules"]
posted, want = [], []
for i, r in enumerate(rules):
    source = re.fullmatch(r'alertname="(\w+)"', r["source_matchers"][0])[1]
    targets = re.fullmatch(r'alertname=~?"(.*)"', r["target_matchers"][0])[1].split("|")
    ns = f"inhibit-{i}"
    posted.append(dict(labels, alertname=source, namespace=ns))
    for t in targets:
        posted.append(dict(labels, alertname=t, namespace=ns))
        # Alone in a namespace of its own: no source there.
        posted.append(dict(labels, alertname=t, namespace=f"{ns}-other-{t}"))
        want.append((t, ns, source))
body = json.dumps([{"labels": l} for l in posted]).encode()
urllib.request.urlopen(urllib.request.Request(api, body, {"Content-Type": "application/json"}))
bad = []
for _ in range(20):
    time.sleep(0.5)
    got = json.load(urllib.request.urlopen(api + "?active=true&inhibited=true&silenced=true&filter=namespace%3D~%22inhibit-.*%22"))
    inhibited = {(a["labels"]["alertname"], a["labels"]["namespace"]) for a in got if a["status"]["inhibitedBy"]}
    bad = [f"{t} in {ns} not inhibited by {s}" for t, ns, s in want if (t, ns) not in inhibited]
    bad += [f"{t} in {ns} inhibited" for t, ns in inhibited if "-other-" in ns]
    if not bad:
        break
print(f"  {len(rules)} rules, {len(want)} source/target pairs inhibited, none in another namespace")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
echo "PASS"
