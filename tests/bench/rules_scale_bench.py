#!/usr/bin/python3
"""What the recording rules cost a Prometheus that watches a fleet of OVN clusters.

  rules_scale_bench.py EXPOSITIONS_DIR --clusters 10 100 --rules NAME=RULES.yaml[,ALERTS.yaml] [...]
                       [--fault-every 20] [--warmup 105] [--cycles 4] [--interval 15]
                       [--rounds 1] [--repeats 3] [--top 12] [--paired]
                       [--engines NAME=PROGRAM ...] [--vmalert-warmup S]

EXPOSITIONS_DIR holds m1.prom, m2.prom, m3.prom: the /metrics of the three exporters of one real
3-member NB+SB cluster (scripts/rules-benchmark.sh captures them live). For each cluster count N
the generator makes N clusters of them, every identity rewritten per cluster (cluster and server
IDs and UUIDs, member IDs, leader IDs, view hashes, hosts, addresses, instances, namespace), and
gives one cluster in every --fault-every a stale member ID in one follower's NB view (a member
re-created at the address of another, as a fresh restart leaves it). It writes down the answer
the rules must give: exactly those stale IDs named, and no alert on a healthy cluster.

One HTTP server serves the 3N expositions; for each rule set in turn a real Prometheus scrapes
them (3N targets, 15 s) and evaluates that set's rule files (every --interval, 15 s) from an
empty TSDB.
After the warm-up (a stale ID is named once it has been seen for a minute) it reads, over
--cycles evaluation cycles, each group's and each rule's evaluation time from /api/v1/rules, then
counts the raw and recorded series, reads Prometheus' resident memory, and checks the answer.
Then it replays: the same Prometheus, reloaded to neither scrape nor evaluate, runs each rule's
expression alone, --repeats times, as of the last cycle, and keeps Prometheus' own evaluation
time (the median): each rule's cost without ingestion, the other group or a busy machine, which
move the live times by a third from one run to the next at 1,000 clusters on 2 CPUs.
A group with a longer interval of its own (ovn-raft-slow.rules) runs in a share of the cycles:
its times, live and replayed, count at that share (a 60 s group in 15 s cycles: a quarter), so
that every figure is a cost per cycle of --interval.
With --rounds R the rule sets take turns R times (A B A B ...), so that a busy minute of the
machine falls on both alike; times are the mean over every cycle of every round, with the
range of the rounds' means beside them. With --paired the sets run side by side in one
Prometheus instead, each under its own recorded names (`set0_...`, `set1_...`; its alerts
labelled `ruleset`), and the replay takes their rules in turn: both see the same samples, the
same heap and the same minute of the machine, which separate Prometheus processes do not.
Their rules then form one group per interval, one set after the other, and half way through
the cycles the order is reversed: a group's rules run one at a time, so each set's time per
cycle (the sum of its rules' evaluation times) is its own work, not also the part of the other
set's that its groups happened to overlap (groups run concurrently, at offsets hashed from
their names). Only the group of a longer interval (the slow groups of the sets that have them)
runs beside the other, once in its interval: where the two overlap, both take longer live, so
the replay, which runs one rule at a time, is the fairer figure there. The replay reverses its
order every other repeat likewise. Both sets' work must then fit in one
interval: at 1,000 clusters on 2 CPUs it does not at 15 s (cycles are missed, the answers come
late), so give such a run --interval 60.
With --engines the same targets and rule sets are measured on each ruler in turn: Prometheus
releases (NAME=their prometheus binary), and vmalert (a NAME starting with vmalert, =the directory
of victoria-metrics and vmalert): a single-node VictoriaMetrics scrapes the targets itself, vmalert
evaluates the same rule files against it and writes the records back by remote write. Its times
are vmalert's own (each group's evaluation duration from its /metrics, each rule's from its
/api/v1/rules), its memory that of both processes, its answers the same recorded series read
back from VictoriaMetrics and vmalert's alerts; it has no replay. A row per engine and rule set.
Prints one Markdown table per cluster count, the rule sets side by side, and the costliest rules.
"""
import argparse
import http.server
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (.*)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
SHORT_ID_LABELS = ("cluster_id", "server_id", "member_id", "leader_id")
UUID_LABELS = ("cluster_uuid", "server_uuid")
HOST = re.compile(r"127\.0\.0\.(\d+)")
ADDRESS = re.compile(r"^(tcp|ssl):127\.0\.0\.(\d+):\d+$")


def watched(alertname):
    """Whether an alert is part of the answer: not OVNRaftReleaseWithKnownRaftDefects, which
    fires for every cluster the captured members' Open vSwitch release puts in it, healthy or not."""
    return alertname != "OVNRaftReleaseWithKnownRaftDefects"


def parse(text):
    """[(name, [(label, value)], value)] of an exposition; comments dropped."""
    out = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = LINE.match(line)
        if not m:
            sys.exit(f"cannot read exposition line: {line}")
        out.append((m.group(1), LABEL.findall(m.group(3) or ""), m.group(4)))
    return out


# The exporter's own clock is read at every scrape (OVNRaftExporterClockSkew compares it with the
# scrape's time), so a page says it as the time it is served, as a live exporter would.
NOW = "@NOW@"


def render(samples):
    lines = []
    for name, labels, value in samples:
        if name == "ovn_raft_exporter_time_seconds":
            value = NOW
        body = ",".join(f'{k}="{v}"' for k, v in labels)
        lines.append(f"{name}{{{body}}} {value}" if labels else f"{name} {value}")
    return ("\n".join(lines) + "\n").encode()


class Cluster:
    """One synthetic cluster: the three members' samples with identities rewritten."""

    def __init__(self, index, members, stale):
        self.index = index
        self.namespace = f"ovn-{index:04d}"
        self.key = (index * 2654435761 + 0x5bd1) & 0xFFFF or 1
        self.prefix = f"10.{(index >> 8) & 255}.{index & 255}"
        self.samples = [[(n, [(k, self.rewrite(k, v)) for k, v in ls], val) for n, ls, val in m]
                        for m in members]
        self.stale_id = None
        if stale:
            self.add_stale_member()

    def short(self, value):
        return f"{int(value, 16) ^ self.key:04x}" if re.fullmatch(r"[0-9a-f]{4}", value) else value

    def rewrite(self, label, value):
        if label in SHORT_ID_LABELS:
            return self.short(value)
        if label in UUID_LABELS and len(value) >= 4:
            return self.short(value[:4]) + value[4:]
        if label == "view_hash":
            return f"{value}-{self.index}"
        if label == "host":
            return HOST.sub(lambda m: f"{self.prefix}.{m.group(1)}", value)
        if label == "address":
            m = ADDRESS.match(value)
            return f"{m.group(1)}:{self.prefix}.{m.group(2)}:6643" if m else value
        return value

    def identity(self, k, db):
        for name, labels, _ in self.samples[k]:
            d = dict(labels)
            if name == "ovn_raft_server_info" and d.get("db") == db:
                return d
        return None

    def add_stale_member(self):
        """A stale ID in one follower's NB view, at another follower's address."""
        db = "OVN_Northbound"
        ids = [self.identity(k, db) for k in range(3)]
        leader = None
        for name, labels, value in self.samples[0]:
            d = dict(labels)
            if name == "ovn_raft_leader_info" and d.get("db") == db:
                leader = d["leader_id"]
        followers = [k for k in range(3) if ids[k]["server_id"] != leader]
        reporter, neighbour = followers[0], followers[1]
        taken = {i["server_id"] for i in ids}
        stale = next(f"{v:04x}" for v in range(0xdead, 0x10000) if f"{v:04x}" not in taken)
        self.stale_id = stale
        me = ids[reporter]
        out = []
        for name, labels, value in self.samples[reporter]:
            d = dict(labels)
            if d.get("db") == db:
                if name == "ovn_raft_view_info":
                    labels = [(k, v + "-stale" if k == "view_hash" else v) for k, v in labels]
                elif name == "ovn_raft_members":
                    value = str(int(float(value)) + 1)
                elif name == "ovn_raft_quorum_size":
                    value = "3"
                elif name == "ovn_raft_view_duplicate_hosts":
                    value = "1"
            out.append((name, labels, value))
        common = [("db", db), ("cluster_id", me["cluster_id"]), ("server_id", me["server_id"])]
        out.append(("ovn_raft_member_info", common + [("member_id", stale), ("address", ids[neighbour]["address"]),
                                                      ("host", ids[neighbour]["host"])], "1"))
        out.append(("ovn_raft_member_connected", [("db", db), ("server_id", me["server_id"]),
                                                  ("member_id", stale)], "0"))
        self.samples[reporter] = out


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024


def serve(pages):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = pages.get(self.path)
            if body is None:
                self.send_error(404)
                return
            body = body.replace(NOW.encode(), f"{time.time():.3f}".encode())
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; version=0.0.4")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # a scraper that gave up or was stopped between runs

        def log_message(self, *args):
            pass

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def api(port, path, **params):
    url = f"http://127.0.0.1:{port}/api/v1/{path}"
    if params:
        url += "?" + urllib.parse.urlencode(params)
    with urllib.request.urlopen(url, timeout=60) as r:
        return json.load(r)["data"]


def wait_for_api(port, path):
    """Waits up to a minute for a freshly started server to answer PATH of its API."""
    for _ in range(300):
        try:
            api(port, path)
            return
        except OSError:
            time.sleep(0.2)


def query(port, promql, at=None):
    return api(port, "query", query=promql, **({} if at is None else {"time": f"{at:.3f}"}))["result"]


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def rule_expressions(rule_files):
    """[(name, expr)] of every rule and alert, in evaluation order."""
    import yaml
    out = []
    for path in rule_files:
        with open(path) as f:
            for g in yaml.safe_load(f)["groups"]:
                out += [(r.get("record") or r.get("alert"), r["expr"]) for r in g["rules"]]
    return out


def seconds(duration):
    """Seconds of a Prometheus duration such as 1m or 1m30s."""
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}
    return sum(int(n) * units[u] for n, u in re.findall(r"(\d+)(ms|s|m|h|d)", duration))


def group_weights(rule_files, interval):
    """({group: weight}, {rule: weight}) of one set's files: the share of the cycles of
    `interval` seconds in which a group with an interval of its own runs (a group every 60 s
    in 15 s cycles: 0.25). Its times are counted at that share, so that a set's time per cycle
    is what it costs per cycle, whatever intervals its groups have."""
    import yaml
    groups, rules = {}, {}
    for path in rule_files:
        with open(path) as f:
            for g in yaml.safe_load(f)["groups"]:
                w = interval / max(interval, seconds(str(g.get("interval", f"{interval}s"))))
                groups[g["name"]] = w
                rules.update({r.get("record") or r.get("alert"): w for r in g["rules"]})
    return groups, rules


def namespaced(tag, rule_files, out_dir):
    """The rule files of one set, rewritten so that two sets can run in one Prometheus: every name
    the set records gets the prefix `tag_` (in its records and in every expression that reads
    them), its groups are named `tag/...`, and its alerts carry `ruleset: tag`. Raw series are
    untouched: both sets read the same samples."""
    import yaml
    docs = [yaml.safe_load(open(path)) for path in rule_files]
    recorded = sorted({r["record"] for d in docs for g in d["groups"] for r in g["rules"] if "record" in r},
                      key=len, reverse=True)
    name = re.compile(r"(?<![A-Za-z0-9_:])(" + "|".join(re.escape(n) for n in recorded) + r")(?![A-Za-z0-9_:])")
    paths = []
    for i, d in enumerate(docs):
        for g in d["groups"]:
            g["name"] = f"{tag}/{g['name']}"
            for r in g["rules"]:
                r["expr"] = name.sub(lambda m: f"{tag}_{m.group(1)}", r["expr"])
                if "record" in r:
                    r["record"] = f"{tag}_{r['record']}"
                else:
                    r.setdefault("labels", {})["ruleset"] = tag
        paths.append(os.path.join(out_dir, f"{tag}-{i}.yaml"))
        with open(paths[-1], "w") as f:
            yaml.safe_dump(d, f, sort_keys=False)
    return paths


def one_group(set_paths, path):
    """The namespaced files of every set as one group written to `path`, the sets' rules one set
    after the other in the order given: a group's rules run one at a time, so no set's rule
    waits for the other set's (see --paired above). A group with an interval of its own joins
    the one paired group of that interval instead. An alert keeps the name of the group it was
    written in as its label `rule_group`; for records, returns {record name: group name}."""
    import yaml
    rules, groups_of = {}, {}
    for paths in set_paths:
        for p in paths:
            for g in yaml.safe_load(open(p))["groups"]:
                for r in g["rules"]:
                    if "record" in r:
                        groups_of[r["record"]] = g["name"]
                    else:
                        r = dict(r, labels=dict(r.get("labels", {}), rule_group=g["name"]))
                    rules.setdefault(g.get("interval"), []).append(r)
    with open(path, "w") as f:
        yaml.safe_dump({"groups": [dict({"name": "paired" if every is None else f"paired-{every}", "rules": rs},
                                        **({} if every is None else {"interval": every}))
                                   for every, rs in rules.items()]}, f, sort_keys=False)
    return groups_of


def quiesce(port, proc, config):
    """Reloads Prometheus to neither scrape nor evaluate, and waits until it has stopped: what the
    checks and the replay below read is then the last cycle's, on an idle Prometheus."""
    with open(config, "w") as f:
        f.write("global:\n  scrape_interval: 15s\n")
    proc.send_signal(signal.SIGHUP)
    for _ in range(100):
        if not api(port, "rules")["groups"] and not api(port, "targets")["activeTargets"]:
            break
        time.sleep(0.2)
    time.sleep(5)  # what the last scrapes and evaluations left to do


def replay(port, exprs, at, repeats):
    """Each rule's expression on its own, one query at a time, as of `at` (the last cycle), on
    the quiesced Prometheus: what each rule costs without the noise of ingestion, of the other
    group and of the machine's busy moments, which at 1,000 clusters dwarf the differences.
    `exprs`: [(key, expr)], evaluated in turn `repeats` times over (a slow minute falls on every
    rule alike). {key: seconds}, the median of each rule's evaluations (Prometheus' own
    evalTotalTime: no JSON encoding)."""
    times = {key: [] for key, _ in exprs}
    for i in range(repeats):
        # Every other repeat in the reverse order: neither set always runs second, after the
        # first has warmed (or littered) the heap.
        for key, expr in (exprs if i % 2 == 0 else exprs[::-1]):
            data = api(port, "query", query=expr, time=f"{at:.3f}", stats="all")
            times[key].append(data["stats"]["timings"]["evalTotalTime"])
    return {key: sorted(t)[len(t) // 2] for key, t in times.items()}


def run_prometheus(binary, sets, targets_file, warmup, cycles, repeats, paired, interval):
    """One Prometheus from an empty TSDB, scraping the targets and evaluating the rule files of
    every set in `sets` ([(name, files)]); with `paired`, the sets side by side, each under its
    own names (namespaced). {name: result}."""
    work = tempfile.mkdtemp(prefix="ovn-raft-scale-")
    port = free_port()
    tags = {name: (f"set{i}" if paired else "") for i, (name, _) in enumerate(sets)}
    weights = {name: group_weights(fs, interval) for name, fs in sets}
    files = {name: (namespaced(tags[name], fs, work) if paired else fs) for name, fs in sets}
    groups_of = {}
    if paired:
        groups_of = one_group(list(files.values()), f"{work}/paired.yaml")
    with open(f"{work}/prometheus.yml", "w") as f:
        f.write(f"""global:
  scrape_interval: 15s
  scrape_timeout: 10s
  evaluation_interval: {interval}s
rule_files: {json.dumps([f"{work}/paired.yaml"] if paired else [p for fs in files.values() for p in fs])}
scrape_configs:
  - job_name: ovn-raft-exporter
    file_sd_configs:
      - files: [{json.dumps(targets_file)}]
""")
    proc = subprocess.Popen([binary, f"--config.file={work}/prometheus.yml",
                             f"--storage.tsdb.path={work}/data", f"--web.listen-address=127.0.0.1:{port}",
                             "--log.level=error"], stdout=subprocess.DEVNULL, stderr=open(f"{work}/log", "w"))

    def owner(group):
        return next((n for n, t in tags.items() if not t or group.startswith(t + "/")), None)

    def origin(rule):
        """(set, group) a rule of the paired group was written in."""
        group = groups_of.get(rule["name"]) or rule.get("labels", {}).get("rule_group", "")
        return owner(group), group.split("/", 1)[-1]

    def named(name, metric):
        return f"{tags[name]}_{metric}" if tags[name] else metric

    def unnamed(name, rule):
        return rule[len(tags[name]) + 1:] if tags[name] and rule.startswith(tags[name] + "_") else rule
    try:
        wait_for_api(port, "status/buildinfo")
        time.sleep(warmup)
        groups = {n: {} for n in tags}
        per_rule = {n: {} for n in tags}
        peak = 0.0
        seen = set()
        reloaded = 0.0  # with --paired, the last evaluation before the order was reversed
        # A group of a longer interval of its own must also run once after the reversal.
        deadline = time.time() + cycles * interval * 3 + max(
            float(g.get("interval", 0)) for g in api(port, "rules")["groups"])
        while len(seen) < cycles and time.time() < deadline:
            data = api(port, "rules")
            # A cycle is an evaluation of the groups at --interval; a slower group's evaluation
            # between two is none.
            stamp = tuple(g["lastEvaluation"] for g in data["groups"] if float(g.get("interval", 0)) <= interval)
            if stamp not in seen and all(parse_time(g["lastEvaluation"]) > reloaded for g in data["groups"]):
                seen.add(stamp)
                for g in data["groups"]:
                    # A group's own time, or, paired, the sum of each set's rules in each group
                    # they were written in.
                    mine = (owner(g["name"]), g["name"])
                    cycle = {} if paired else {mine: g["evaluationTime"]}
                    for r in g["rules"]:
                        n, group = origin(r) if paired else mine
                        per_rule[n].setdefault(r.get("name"), []).append(r["evaluationTime"])
                        if paired:
                            cycle[(n, group)] = cycle.get((n, group), 0.0) + r["evaluationTime"]
                    for (n, group), t in cycle.items():
                        groups[n].setdefault(group, []).append(t)
                if paired and len(seen) == cycles // 2:
                    # The other half of the cycles with the sets' order reversed: neither always
                    # runs first (on a fresher heap) nor second (after the other's garbage).
                    reloaded = max(parse_time(g["lastEvaluation"]) for g in data["groups"])
                    one_group(list(reversed(list(files.values()))), f"{work}/paired.yaml")
                    proc.send_signal(signal.SIGHUP)
            peak = max(peak, rss_mib(proc.pid))
            time.sleep(3)
        at = max(parse_time(g["lastEvaluation"]) for g in api(port, "rules")["groups"])
        rss = max(peak, rss_mib(proc.pid))
        # Prometheus' own counter (it does not scrape itself here), read before the reload drops it.
        missed = {}
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=60) as r:
            for line in r.read().decode().splitlines():
                m = re.match(r'prometheus_rule_group_iterations_missed_total\{rule_group="[^;"]*;([^"]*)"\} (\S+)$',
                             line)
                if m:
                    missed[m.group(1)] = missed.get(m.group(1), 0) + int(float(m.group(2)))
        quiesce(port, proc, f"{work}/prometheus.yml")
        raw = int(float(query(port, 'count({job="ovn-raft-exporter"})', at)[0]["value"][1]))
        results = {}
        for name in tags:
            alerts = query(port, f'ALERTS{{ruleset="{tags[name]}"}}' if tags[name] else "ALERTS", at)
            group_w, rule_w = weights[name]
            results[name] = {
                "groups": {g: sum(v) / len(v) * group_w.get(g, 1.0) for g, v in groups[name].items()},
                "rules": {r: sum(v) / len(v) * rule_w.get(unnamed(name, r), 1.0) for r, v in per_rule[name].items()},
                "raw": raw,
                "recorded": int(float((query(port, f'count({{__name__=~"{named(name, ".+:.+")}"}})', at)
                                       or [{"value": [0, "0"]}])[0]["value"][1])),
                "rss": rss,
                "suspects": {(s["metric"]["namespace"], s["metric"]["db"], s["metric"]["member_id"])
                             for s in query(port, named(name, "ovn_raft_cluster_member:stale_suspect:named_by"), at)},
                "alerts": {(s["metric"]["namespace"], s["metric"]["alertname"], s["metric"].get("db", "-"))
                           for s in alerts if "namespace" in s["metric"] and watched(s["metric"]["alertname"])},
                "missed_cycles": sum(v for g, v in missed.items() if paired or owner(g) == name),
                "cycles": len(seen),
            }
        exprs = []
        for name in tags:
            # Every rule by the name it has in its own set, so that the sets' tables compare.
            exprs += [((name, rule.split("_", 1)[1] if tags[name] and ":" in rule else rule), expr)
                      for rule, expr in rule_expressions(files[name])]
        costs = replay(port, exprs, at, repeats)
        for name in tags:
            results[name]["replayed"] = {rule: t * weights[name][1].get(rule, 1.0)
                                         for (n, rule), t in costs.items() if n == name}
        return results
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        shutil.rmtree(work, ignore_errors=True)


def metrics_text(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=60) as r:
        return r.read().decode()


def iteration_totals(port):
    """{group: (seconds, iterations)} of vmalert's own per-group evaluation durations."""
    sums, counts = {}, {}
    for line in metrics_text(port).splitlines():
        m = re.match(r'vmalert_iteration_duration_seconds_(sum|count)\{group="([^"]*)",\s*file="[^"]*"\} (\S+)$', line)
        if m:
            (sums if m.group(1) == "sum" else counts)[m.group(2)] = float(m.group(3))
    return {g: (sums[g], counts.get(g, 0.0)) for g in sums}


def counter(port, name):
    total = 0.0
    for line in metrics_text(port).splitlines():
        if line.startswith(name) and line[len(name)] in " {":
            total += float(line.rsplit(" ", 1)[1])
    return total


def run_vmalert(bindir, rule_files, targets_file, warmup, cycles, interval):
    """A single-node VictoriaMetrics from empty storage that scrapes the targets itself, and a
    vmalert that evaluates the rule files against it and writes the records back by remote
    write, both with their defaults otherwise (vmalert evaluates 30 s back, where
    VictoriaMetrics' queries see complete data). Measures as run_prometheus does, reading each
    group's time from vmalert's own metrics and each rule's from its /api/v1/rules; there is no
    replay (VictoriaMetrics reports no evaluation time of its own for one query)."""
    work = tempfile.mkdtemp(prefix="ovn-raft-scale-vm-")
    vm_port, alert_port = free_port(), free_port()
    with open(f"{work}/scrape.yml", "w") as f:
        f.write(f"""global:
  scrape_interval: 15s
  scrape_timeout: 10s
scrape_configs:
  - job_name: ovn-raft-exporter
    file_sd_configs:
      - files: [{json.dumps(targets_file)}]
""")
    procs = []
    try:
        procs.append(subprocess.Popen(
            [f"{bindir}/victoria-metrics", f"-storageDataPath={work}/data", f"-httpListenAddr=127.0.0.1:{vm_port}",
             f"-promscrape.config={work}/scrape.yml", "-retentionPeriod=1d", "-loggerLevel=ERROR",
             # The checks below count every raw series of a large fleet in one query, past the
             # default limits on the series one query may touch and on its time.
             "-search.maxUniqueTimeseries=20000000", "-search.maxQueryDuration=10m"],
            stdout=subprocess.DEVNULL, stderr=open(f"{work}/vm.log", "w")))
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{vm_port}/health", timeout=5).read()
                break
            except OSError:
                time.sleep(0.2)
        procs.append(subprocess.Popen(
            [f"{bindir}/vmalert", *[f"-rule={p}" for p in rule_files],
             f"-datasource.url=http://127.0.0.1:{vm_port}", f"-remoteWrite.url=http://127.0.0.1:{vm_port}",
             # The default queue holds fewer points than a large fleet's records of one cycle:
             # the rest would be dropped, not measured.
             "-remoteWrite.maxQueueSize=5000000", "-notifier.blackhole", f"-evaluationInterval={interval}s",
             f"-httpListenAddr=127.0.0.1:{alert_port}", "-loggerLevel=ERROR"],
            stdout=subprocess.DEVNULL, stderr=open(f"{work}/vmalert.log", "w")))
        vm, alerter = procs
        wait_for_api(alert_port, "rules")
        # Records that read records of their own group see the previous evaluation's (vmalert
        # writes a group's records after the group), and queries look 30 s back: answers settle
        # a few cycles later than on Prometheus.
        time.sleep(warmup)
        per_rule, seen, peak = {}, set(), {"victoria-metrics": 0.0, "vmalert": 0.0}
        start = iteration_totals(alert_port)
        missed0 = counter(alert_port, "vmalert_iteration_missed_total")
        group_w, rule_w = group_weights(rule_files, interval)
        deadline = time.time() + cycles * interval * 3 / min(group_w.values())

        def done():  # every group evaluated `cycles` times since the start, a slower one its share
            now = iteration_totals(alert_port)
            return all(now[g][1] - start.get(g, (0, 0))[1] >= max(1, round(cycles * group_w.get(g, 1.0)))
                       for g in now)
        while not done() and time.time() < deadline:
            data = api(alert_port, "rules")
            stamp = tuple(g["lastEvaluation"] for g in data["groups"])
            if stamp not in seen:
                seen.add(stamp)
                for g in data["groups"]:
                    for r in g["rules"]:
                        per_rule.setdefault(r["name"], []).append(r["evaluationTime"])
            peak = {"victoria-metrics": max(peak["victoria-metrics"], rss_mib(vm.pid)),
                    "vmalert": max(peak["vmalert"], rss_mib(alerter.pid))}
            time.sleep(3)
        end = iteration_totals(alert_port)
        groups = {g: (end[g][0] - start.get(g, (0, 0))[0]) / (end[g][1] - start.get(g, (0, 0))[1]) * group_w.get(g, 1.0)
                  for g in end if end[g][1] > start.get(g, (0, 0))[1]}
        missed = int(counter(alert_port, "vmalert_iteration_missed_total") - missed0)
        dropped = int(counter(alert_port, "vmalert_remotewrite_dropped_rows_total"))
        errors = int(counter(alert_port, "vmalert_recording_rules_errors_total") +
                     counter(alert_port, "vmalert_alerting_rules_errors_total"))
        alerts = api(alert_port, "alerts")["alerts"]
        alerter.send_signal(signal.SIGTERM)
        alerter.wait(timeout=60)
        time.sleep(5)  # the last remote writes

        def vmquery(q):
            with urllib.request.urlopen(f"http://127.0.0.1:{vm_port}/api/v1/query?" +
                                        urllib.parse.urlencode({"query": q, "nocache": "1"}), timeout=120) as r:
                return json.load(r)["data"]["result"]
        def count(q):
            """The number of series q matches, or -1 (and a note) when VictoriaMetrics refuses to
            count them in one query: a large fleet's are past its limits."""
            try:
                return int(float((vmquery(f"count({q})") or [{"value": [0, "0"]}])[0]["value"][1]))
            except urllib.error.HTTPError as e:
                print(f"  victoria-metrics: count({q}): {e.read().decode(errors='replace')[:300]}", file=sys.stderr)
                return -1
        raw = count('{job="ovn-raft-exporter"}')
        recorded = count('{__name__=~".+:.+"}')
        return {
            "groups": groups,
            "rules": {r: sum(v) / len(v) * rule_w.get(r, 1.0) for r, v in per_rule.items()},
            "raw": raw, "recorded": recorded,
            "rss": sum(peak.values()),
            "rss_detail": f"VictoriaMetrics {peak['victoria-metrics']:.0f} + vmalert {peak['vmalert']:.0f}",
            "suspects": {(s["metric"]["namespace"], s["metric"]["db"], s["metric"]["member_id"])
                         for s in vmquery("ovn_raft_cluster_member:stale_suspect:named_by")},
            "alerts": {(a["labels"]["namespace"], a["labels"]["alertname"], a["labels"].get("db", "-"))
                       for a in alerts if "namespace" in a["labels"] and watched(a["labels"]["alertname"])},
            "missed_cycles": missed, "cycles": len(seen), "replayed": {},
            "notes": [f"{dropped} records dropped by remote write", f"{errors} rule errors"]
            if dropped or errors else [],
        }
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        shutil.rmtree(work, ignore_errors=True)


def parse_time(rfc3339):
    """Unix seconds of Prometheus' lastEvaluation (nanosecond RFC 3339, UTC)."""
    from datetime import datetime, timezone
    m = re.match(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z$", rfc3339)
    whole = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc)
    return whole.timestamp() + float(m.group(2) or 0)


def combine(runs):
    """One result from the rounds of one rule set: mean times, the worst of everything else."""
    def mean(key):
        names = set().union(*(r[key] for r in runs))
        return {k: sum(r[key].get(k, 0.0) for r in runs) / len(runs) for k in names}
    last = runs[-1]
    return dict(last, groups=mean("groups"), rules=mean("rules"), replayed=mean("replayed"),
                rss=max(r["rss"] for r in runs),
                missed_cycles=sum(r["missed_cycles"] for r in runs),
                right=all(r["right"] for r in runs),
                suspects=last["suspects"] if all(r["right"] for r in runs) else
                next(r["suspects"] for r in runs if not r["right"]),
                healthy_alerts=sorted(set().union(*(r["healthy_alerts"] for r in runs))),
                totals=[sum(r["groups"].values()) for r in runs],
                replayed_totals=[sum(r["replayed"].values()) for r in runs],
                notes=[n for r in runs for n in r.get("notes", [])])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("expositions")
    ap.add_argument("--clusters", type=int, nargs="+", default=[10, 100, 300, 1000])
    ap.add_argument("--rules", nargs="+", required=True,
                    help="NAME=FILE[,FILE...]: a rule set (its rules and alerts), compared side by side")
    ap.add_argument("--fault-every", type=int, default=20)
    ap.add_argument("--interval", type=int, default=15, help="evaluation interval of the rules, seconds")
    ap.add_argument("--warmup", type=float, default=None,
                    help="seconds before the measured cycles (default: 105, or 4 intervals if longer: "
                         "a stale ID is named once it has been seen for a minute)")
    ap.add_argument("--cycles", type=int, default=4)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--paired", action="store_true",
                    help="run the rule sets side by side in one Prometheus (each under its own recorded "
                         "names): the same samples, heap and machine for both, each rule replayed in turn")
    ap.add_argument("--engines", nargs="+", default=["prometheus=prometheus"],
                    help="NAME=PROGRAM: the rulers to measure side by side, each on every rule set; a NAME "
                         "starting with vmalert takes the directory of victoria-metrics and vmalert, any "
                         "other a prometheus binary (--paired applies to these)")
    ap.add_argument("--vmalert-warmup", type=float, default=None,
                    help="seconds before vmalert's measured cycles (default: the warm-up plus 8 intervals: its "
                         "answers settle later, see run_vmalert)")
    ap.add_argument("--repeats", type=int, default=3,
                    help="evaluations of each rule in the replay (the median is kept)")
    args = ap.parse_args()
    warmup = args.warmup if args.warmup is not None else max(105, 4 * args.interval)
    members = [parse(open(os.path.join(args.expositions, f"m{k}.prom")).read()) for k in (1, 2, 3)]
    rule_sets = [r.split("=", 1) for r in args.rules]
    ok = True
    engines = [e.split("=", 1) for e in args.engines]
    vm_warmup = args.vmalert_warmup if args.vmalert_warmup is not None else warmup + 14 * args.interval

    def version(name, program):
        argv = [f"{program}/victoria-metrics", "-version"] if name.startswith("vmalert") else [program, "--version"]
        out = subprocess.run(argv, capture_output=True, text=True)
        # Debian's VictoriaMetrics reports no version: its path names the release.
        return ((out.stdout + out.stderr).strip().splitlines() or [program])[0]
    print(f"machine: {os.cpu_count()} CPUs, {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') >> 30} GiB; "
          + "; ".join(f"{name}: {version(name, program)}" for name, program in engines))
    for n in args.clusters:
        clusters = [Cluster(i, members, i % args.fault_every == 0) for i in range(n)]
        pages, targets = {}, []
        for c in clusters:
            for k in range(3):
                path = f"/c{c.index}/m{k + 1}"
                pages[path] = render(c.samples[k])
        server = serve(pages)
        for c in clusters:
            for k in range(3):
                targets.append({"targets": [f"127.0.0.1:{server.server_address[1]}"],
                                "labels": {"namespace": c.namespace, "instance": f"{c.prefix}.{k + 1}:10476",
                                           "__metrics_path__": f"/c{c.index}/m{k + 1}"}})
        tdir = tempfile.mkdtemp(prefix="ovn-raft-scale-targets-")
        targets_file = f"{tdir}/targets.json"
        with open(targets_file, "w") as f:
            json.dump(targets, f)
        expected = {(c.namespace, "OVN_Northbound", c.stale_id) for c in clusters if c.stale_id}
        faulty = {c.namespace for c in clusters if c.stale_id}
        # A row per engine and rule set, named by the set alone when one engine is measured.
        label = (lambda e, n: n) if len(engines) == 1 else (lambda e, n: f"{e}: {n}")
        runs = {label(e, name): [] for e, _ in engines for name, _ in rule_sets}
        sets = [(name, [os.path.abspath(f) for f in rules.split(",")]) for name, rules in rule_sets]
        for _ in range(args.rounds):
            for engine, program in engines:
                if engine.startswith("vmalert"):
                    measured = {}
                    for name, files in sets:
                        measured[name] = run_vmalert(program, files, targets_file, vm_warmup, args.cycles,
                                                     args.interval)
                else:
                    measured = {}
                    # Side by side in one Prometheus, or one Prometheus per set in turn.
                    for batch in ([sets] if args.paired else [[s] for s in sets]):
                        measured.update(run_prometheus(program, batch, targets_file, warmup, args.cycles,
                                                       args.repeats, args.paired, args.interval))
                for name, r in measured.items():
                    r["right"] = r["suspects"] == expected
                    r["healthy_alerts"] = sorted(a for a in r["alerts"] if a[0] not in faulty)
                    ok = ok and r["right"] and not r["healthy_alerts"] and not r.get("notes")
                    runs[label(engine, name)].append(r)
        results = {name: combine(rs) for name, rs in runs.items()}
        server.shutdown()
        shutil.rmtree(tdir, ignore_errors=True)

        print(f"\n### {n} clusters ({len(faulty)} with a stale ID)\n")
        print("| rules | raw / recorded series | rules per cycle | of which consensus | each rule alone | "
              "RSS | suspects named | alerts on healthy clusters | cycles missed |")
        print("|---|---|---|---|---|---|---|---|---|")
        for name, r in results.items():
            total = sum(r["groups"].values())
            consensus = sum(v for g, v in r["groups"].items() if "consensus" in g)
            right = "exactly the injected" if r["right"] else \
                f"WRONG: {len(r['suspects'] - expected)} extra, {len(expected - r['suspects'])} missed"
            spread = "" if len(r["totals"]) < 2 else \
                f" ({min(r['totals']) * 1000:.0f}-{max(r['totals']) * 1000:.0f})"
            alone = sum(r["replayed"].values())
            rss = r.get("rss_detail", "Prometheus")
            alone_spread = "" if len(r["replayed_totals"]) < 2 else \
                f" ({min(r['replayed_totals']) * 1000:.0f}-{max(r['replayed_totals']) * 1000:.0f})"
            print(f"| {name} | {r['raw']:,} / {r['recorded']:,} | {total * 1000:.0f} ms{spread} | {consensus * 1000:.0f} ms | "
                  + (f"{alone * 1000:.0f} ms{alone_spread}" if r["replayed"] else "-") + " | "
                  f"{r['rss']:.0f} MiB ({rss}) | {right} ({len(r['suspects'])}) | {len(r['healthy_alerts'])} | "
                  f"{r['missed_cycles']} |")
        if len(results) > 1:
            names = list(results)
            # A ruler that finished no cycle in the measured time (a saturated machine) has none.
            base = sum(results[names[0]]["groups"].values()) or float("nan")
            base_alone = sum(results[names[0]]["replayed"].values()) or float("nan")
            for name in names[1:]:
                # Round i of each set ran one after the other: their ratio sees the same machine.
                paired = ", ".join(f"{b / a:.2f}" for a, b in zip(results[names[0]]["replayed_totals"],
                                                                  results[name]["replayed_totals"]))
                alone = "" if not results[name]["replayed"] else \
                    (f", {sum(results[name]['replayed'].values()) / base_alone:.2f} of the time of each rule alone "
                     f"(round by round: {paired})")
                print(f"\n{name} / {names[0]}: {sum(results[name]['groups'].values()) / base:.2f} of the time per cycle"
                      + alone)
        for name, r in results.items():
            # Without a replay (vmalert), each rule's own time in the measured cycles.
            top = sorted((r["replayed"] or r["rules"]).items(), key=lambda kv: -kv[1])[:args.top]
            print(f"\ncostliest rules {'alone' if r['replayed'] else 'per cycle'} ({name}): "
                  + ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in top))
            for note in r.get("notes", []):
                print(f"  WRONG ({name}): {note}")
            for a in r["healthy_alerts"][:10]:
                print(f"  alert on a healthy cluster ({name}): {a}")
        sys.stdout.flush()
    print("\nrules scale: " + ("every answer right" if ok else "WRONG ANSWERS"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
