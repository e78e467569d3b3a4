"""Writes the mixin's output (JSON on stdin: path -> content) as readable files: YAML with block
scalars for multi-line PromQL, dashboards as indented JSON, and the Kubernetes PrometheusRule
and Grafana ConfigMap that wrap them. With --check, reports stale files and exits 1."""
import json
import sys
from pathlib import Path

import yaml


class Dumper(yaml.SafeDumper):
    pass


def _str(dumper, value):
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


Dumper.add_representer(str, _str)

HEADER = "# Generated from mixin/ by scripts/generate-mixin.sh: edit the jsonnet, not this file.\n"


KEY_ORDER = ["name", "record", "alert", "expr", "for", "labels", "annotations", "rules"]


def ordered(value):
    """jsonnet sorts keys; rules read better as record/alert, expr, for, labels, annotations."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (KEY_ORDER.index(k) if k in KEY_ORDER else len(KEY_ORDER), k))
        return {k: ordered(value[k]) for k in keys}
    if isinstance(value, list):
        return [ordered(v) for v in value]
    return value


def to_yaml(value):
    value = ordered(value)
    return HEADER + yaml.dump(value, Dumper=Dumper, sort_keys=False, width=100, allow_unicode=True)


def main():
    root = Path(sys.argv[1])
    check = "--check" in sys.argv
    files = {}
    generated = json.load(sys.stdin)
    for path, content in generated.items():
        files[path] = to_yaml(content) if path.endswith(".yaml") else json.dumps(content, indent=2) + "\n"
    # Kubernetes objects wrapping the same content (deploy/kubernetes).
    rule = {"apiVersion": "monitoring.coreos.com/v1", "kind": "PrometheusRule",
            "metadata": {"name": "ovn-raft", "labels": {"app.kubernetes.io/name": "ovn-raft-exporter"}},
            "spec": {"groups": generated["alerts/ovn-raft-rules.yaml"]["groups"]
                     + generated["alerts/ovn-raft-alerts.yaml"]["groups"]}}
    files["deploy/kubernetes/prometheusrule.yaml"] = to_yaml(rule)
    # Kube-OVN's kube-ovn-v2 chart inserts prometheusRule.additionalGroups with toYaml, not tpl, so
    # the alerts' {{ $labels }} templates pass through untouched (its extraObjects would not).
    values = {"prometheusRule": {"enabled": True, "additionalGroups": rule["spec"]["groups"]}}
    files["deploy/kubernetes/kube-ovn/values-kube-ovn-v2.yaml"] = to_yaml(values).replace(
        HEADER, HEADER + "# Values for Kube-OVN's kube-ovn-v2 chart: adds this project's recording rules and alerts\n"
        "# to the chart's PrometheusRule (helm ... -f values-kube-ovn-v2.yaml). Only charts from\n"
        "# Kube-OVN main have that PrometheusRule: with v1.16.2 and older these values do nothing,\n"
        "# silently; apply deploy/kubernetes/prometheusrule.yaml there instead.\n", 1)
    dashboards = {p.split("/")[-1]: files[p] for p in sorted(files) if p.startswith("dashboards/")}
    if dashboards:
        configmap = {"apiVersion": "v1", "kind": "ConfigMap",
                     "metadata": {"name": "ovn-raft-dashboards", "labels": {"grafana_dashboard": "1"}},
                     "data": dashboards}
        files["deploy/kubernetes/grafana-dashboards-configmap.yaml"] = to_yaml(configmap)
    stale = []
    for path, text in files.items():
        target = root / path
        if check:
            if not target.exists() or target.read_text() != text:
                stale.append(path)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
    if stale:
        sys.exit("out of date, run scripts/generate-mixin.sh: " + ", ".join(stale))


if __name__ == "__main__":
    main()
