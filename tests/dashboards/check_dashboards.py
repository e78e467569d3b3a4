#!/usr/bin/python3
"""Checks dashboards/*.json against the monitoring-mixin conventions: valid JSON, a stable and
unique uid, tags, a `datasource` variable used by every panel and query, a unit on every panel,
$__rate_interval in every rate-like range, the deployment/db/cluster_id variables on the cluster
dashboard, and every query valid PromQL (promtool check rules on a file of them, variables
substituted). Prints the queries as JSON lines with --queries (the end-to-end test runs them)."""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

root = Path(__file__).resolve().parents[2]
SUBSTITUTE = {"$__rate_interval": "1m", "$namespace": ".+", "$db": "OVN_Northbound", "$cluster_id": "x"}


def substitute(expr, values=SUBSTITUTE):
    for k, v in sorted(values.items(), key=lambda kv: -len(kv[0])):
        expr = expr.replace(k, v)
    return expr


def main():
    errors, queries, uids = [], [], set()
    files = sorted((root / "dashboards").glob("*.json"))
    if len(files) < 2:
        errors.append("expected an overview and a cluster dashboard")
    for f in files:
        d = json.loads(f.read_text())
        name = f.name
        if not d.get("uid") or d["uid"] in uids:
            errors.append(f"{name}: missing or duplicate uid")
        uids.add(d.get("uid"))
        if not d.get("tags"):
            errors.append(f"{name}: no tags")
        variables = {v["name"]: v for v in d.get("templating", {}).get("list", [])}
        if variables.get("datasource", {}).get("type") != "datasource":
            errors.append(f"{name}: no datasource variable")
        if "cluster" in name:
            for v in ("namespace", "db", "cluster_id"):
                if v not in variables:
                    errors.append(f"{name}: no {v} variable")
        for p in d["panels"]:
            where = f"{name}: panel '{p.get('title')}'"
            if p.get("datasource", {}).get("uid") != "${datasource}":
                errors.append(f"{where}: not on the datasource variable")
            if not p.get("fieldConfig", {}).get("defaults", {}).get("unit"):
                errors.append(f"{where}: no unit")
            if not p.get("description"):
                errors.append(f"{where}: no description")
            for t in p.get("targets", []):
                expr = t["expr"]
                if t.get("datasource", {}).get("uid") != "${datasource}":
                    errors.append(f"{where}: a query not on the datasource variable")
                for fn, rng in re.findall(r"\b(rate|irate|increase|changes|delta|deriv)\(.*?\[([^\]]+)\]", expr):
                    if rng != "$__rate_interval":
                        errors.append(f"{where}: {fn} over [{rng}], not [$__rate_interval]")
                queries.append({"dashboard": name, "panel": p["title"], "expr": expr,
                                "may_be_empty": bool(t.get("ovnRaftMayBeEmpty"))})
    if "--queries" in sys.argv:
        for q in queries:
            print(json.dumps(q))
        return 0 if not errors else 1
    # Every query must parse: promtool checks them as recording rules.
    rules = {"groups": [{"name": "dashboard-queries", "rules": [
        {"record": f"dashboard:query_{i}:check", "expr": substitute(q["expr"])} for i, q in enumerate(queries)]}]}
    with tempfile.NamedTemporaryFile("w", suffix=".yaml") as tmp:
        json.dump(rules, tmp)
        tmp.flush()
        check = subprocess.run(["promtool", "check", "rules", tmp.name], capture_output=True, text=True)
        if check.returncode != 0:
            errors.append("promtool rejects a dashboard query:\n" + check.stdout + check.stderr)
    # Every deployment label is a dashboard variable, not only the first.
    two = subprocess.run(["jsonnet", "-J", str(root / "mixin"), "-e",
                          "local m = (import 'mixin.libsonnet') + { _config+:: "
                          "{ deploymentLabels: ['cluster', 'namespace'] } }; "
                          "[[v.name for v in d.templating.list] for d in std.objectValues(m.grafanaDashboards)]"],
                         capture_output=True, text=True)
    for names in json.loads(two.stdout or "[]") or [[]]:
        if "cluster" not in names or "namespace" not in names:
            errors.append(f"deploymentLabels ['cluster', 'namespace'] gives the variables {names}")
    print("\n".join(errors) or f"{len(files)} dashboards, {len(queries)} queries follow the conventions")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
