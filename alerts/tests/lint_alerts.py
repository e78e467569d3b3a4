#!/usr/bin/python3
"""Checks the alerts against the monitoring-mixin conventions this project follows: one
CamelCase prefix, a severity of critical|warning|info, a plain summary, a templated
description, a runbook_url whose anchor is a section of RUNBOOK.md, and a `for:` on every
alert whose condition can flap (all but the windowed ones); and, in every rule and alert, the
mixin's selector on each of the exporter's own series (recorded series carry no job)."""
import re
import sys
from pathlib import Path

import yaml

root = Path(__file__).resolve().parents[2]
runbook = {m.group(1).lower() for m in re.finditer(r"^## (\w+)$", (root / "RUNBOOK.md").read_text(), re.M)}
alerts = []
for a in (a for g in yaml.safe_load((root / "alerts/ovn-raft-alerts.yaml").read_text())["groups"] for a in g["rules"]):
    alerts.append(dict(a, severity=a["labels"]["severity"], **a["annotations"]))
errors = []
for a in alerts:
    name = a["alert"]
    if not re.fullmatch(r"OVNRaft[A-Z][A-Za-z]+", name):
        errors.append(f"{name}: not CamelCase with the OVNRaft prefix")
    if a.get("severity") not in ("critical", "warning", "info"):
        errors.append(f"{name}: severity {a.get('severity')}")
    if "{{" in a.get("summary", "{{") or not a.get("summary"):
        errors.append(f"{name}: summary must be plain text")
    if "{{ $labels." not in a.get("description", ""):
        errors.append(f"{name}: description must be templated")
    anchor = a.get("runbook_url", "").rsplit("#", 1)[-1]
    if anchor != name.lower() or anchor not in runbook:
        errors.append(f"{name}: runbook_url #{anchor} has no RUNBOOK.md section")
    if "for" not in a and "_over_time" not in a.get("expr", ""):
        errors.append(f"{name}: no `for:`; a single evaluation must not fire it")
selector = 'job=~".*ovn-raft.*"'
raw = re.compile(r"(?<![:\w])(ovn_raft_[a-z_]+)(?![:\w])(\{[^}]*\})?")
rules = 0
for f in ("ovn-raft-rules.yaml", "ovn-raft-alerts.yaml"):
    for group in yaml.safe_load((root / "alerts" / f).read_text())["groups"]:
        for r in group["rules"]:
            rules += 1
            for m in raw.finditer(r["expr"]):
                if selector not in (m.group(2) or ""):
                    errors.append(f"{r.get('alert') or r.get('record')}: {m.group(1)} without the selector")
if len(alerts) < 20:
    errors.append(f"only {len(alerts)} alerts found")
print("\n".join(errors) or f"{len(alerts)} alerts follow the conventions; {rules} rules select the exporters' series")
sys.exit(1 if errors else 0)
