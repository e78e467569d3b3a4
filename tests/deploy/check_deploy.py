#!/usr/bin/python3
"""Checks that deploy/ and the Dockerfile agree with the code and with each other:
- the sidecar patches use the exporter's default port (ovn-ic-server's: its own), mount the
  directory of its default sockets read-only, probe /healthz, and use the image tag of the
  project's version (how they render onto the upstream objects is check_components.py's part);
- each PodMonitor scrapes the patch's port name and the default telemetry path;
- the PrometheusRule holds exactly alerts/*.yaml, the dashboards ConfigMap exactly dashboards/;
- the Dockerfile exposes the port, runs as non-root, has a HEALTHCHECK, and its runtime stage
  installs a package for every shared library the built binary links (ldd, dpkg -S).
Usage: check_deploy.py BINARY"""
import json
import re
import subprocess
import sys
from pathlib import Path

import yaml

root = Path(__file__).resolve().parents[2]
errors = []


def check(condition, message):
    if not condition:
        errors.append(message)


# The defaults as the binary states them (its --help, from the one flag table).
usage = subprocess.run([sys.argv[1], "--help"], capture_output=True, text=True, check=True).stdout


def default_of(flag):
    m = re.search(r"--%s=VALUE .*?\n\s+.*?\(default ([^)]+)\)\n" % re.escape(flag), usage)
    if not m:
        sys.exit(f"check_deploy: --help states no default for --{flag}")
    return m.group(1)


port = int(default_of("web.listen-address").lstrip(":"))
telemetry = default_of("web.telemetry-path")
# Without --ovsdb.database the sockets are looked for at start, first in the place ovn-ctl uses
# by default: the sidecars mount exactly that one.
socket_dir = re.search(r"--ovsdb\.database=VALUE .*?\n.*? else in the first of (/[^ ,]+)", usage).group(1)
version = re.search(r"project\(ovn-raft-exporter VERSION ([\d.]+)", (root / "CMakeLists.txt").read_text()).group(1)

# Kube-OVN's ovn-ic-server runs hostNetwork on ovn-central's nodes: its sidecar takes another port
# (ovn-central's 10476 and, behind kube-rbac-proxy, 127.0.0.1:10477 are taken).
own_port = {"kube-ovn/ic-server": 10478}
for flavour in ("kube-ovn", "kube-ovn/hcp", "kube-ovn/ic-server", "ovn-kubernetes"):
    patch = root / "deploy/kubernetes" / flavour / "exporter-sidecar.yaml"
    c = next(c for c in yaml.safe_load(patch.read_text())["spec"]["template"]["spec"]["containers"]
             if c["name"] == "ovn-raft-exporter")
    where = patch.relative_to(root)
    sidecar_port = own_port.get(flavour, port)
    check(c["image"].endswith(":" + version), f"{where}: image tag is not {version}")
    check(f"--web.listen-address=[$(POD_IP)]:{sidecar_port}" in c["args"], f"{where}: not listening on [$(POD_IP)]:{sidecar_port}")
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    check(list(ports.values()) == [sidecar_port], f"{where}: container port is not {sidecar_port}")
    mounts = [m for m in c["volumeMounts"] if m["mountPath"] == socket_dir]
    check(len(mounts) == 1 and mounts[0].get("readOnly") is True, f"{where}: {socket_dir} not mounted read-only")
    check(c["livenessProbe"]["httpGet"]["path"] == "/healthz", f"{where}: liveness is not /healthz")
    check("readinessProbe" not in c, f"{where}: a readinessProbe would take ovn-central out of its Services")
    monitor = yaml.safe_load((root / "deploy/kubernetes" / flavour / "podmonitor.yaml").read_text())
    endpoint = monitor["spec"]["podMetricsEndpoints"][0]
    check(endpoint["port"] in ports, f"{flavour}/podmonitor.yaml: port {endpoint['port']} is not the sidecar's")
    check(endpoint["path"] == telemetry, f"{flavour}/podmonitor.yaml: path is not {telemetry}")

rule = yaml.safe_load((root / "deploy/kubernetes/prometheusrule.yaml").read_text())
groups = []
for f in ("alerts/ovn-raft-rules.yaml", "alerts/ovn-raft-alerts.yaml"):
    groups += yaml.safe_load((root / f).read_text())["groups"]
check(rule["kind"] == "PrometheusRule" and rule["spec"]["groups"] == groups,
      "prometheusrule.yaml differs from alerts/*.yaml")
configmap = yaml.safe_load((root / "deploy/kubernetes/grafana-dashboards-configmap.yaml").read_text())
dashboards = {p.name: json.loads(p.read_text()) for p in (root / "dashboards").glob("*.json")}
check({k: json.loads(v) for k, v in configmap["data"].items()} == dashboards,
      "grafana-dashboards-configmap.yaml differs from dashboards/")
check(configmap["metadata"]["labels"].get("grafana_dashboard") == "1", "the ConfigMap lacks grafana_dashboard=1")
values = yaml.safe_load((root / "deploy/kubernetes/kube-ovn/values-kube-ovn-v2.yaml").read_text())
check(values["prometheusRule"]["enabled"] is True and values["prometheusRule"]["additionalGroups"] == groups,
      "kube-ovn/values-kube-ovn-v2.yaml does not carry exactly alerts/*.yaml")

dockerfile = (root / "Dockerfile").read_text()
runtime = dockerfile[dockerfile.rindex("\nFROM "):]
check(f"EXPOSE {port}" in runtime, f"Dockerfile does not EXPOSE {port}")
check(re.search(r"\nUSER (\d+)", runtime) and re.search(r"\nUSER (\d+)", runtime).group(1) != "0",
      "Dockerfile runtime does not run as a non-root user")
check("HEALTHCHECK" in runtime, "Dockerfile has no HEALTHCHECK")
installed = set(re.findall(r"\b(lib[a-z0-9.+-]+|zlib1g)\b", runtime.split("rm -rf")[0]))
base = {"libc6", "libgcc-s1", "libstdc++6"}  # in debian:13-slim already
binary = sys.argv[1]
ldd = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
needed = set()
for path in re.findall(r"=> (/\S+)", ldd):
    for candidate in (path, str(Path(path).resolve())):  # merged /usr: either may be registered
        owner = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
        if owner.returncode == 0:
            break
    check(owner.returncode == 0, f"no package owns {path}")
    if owner.returncode == 0:
        needed.add(owner.stdout.split(":")[0])
# This machine is Debian 12; the image is Debian 13, where libraries with a 64-bit time_t were
# renamed (libssl3 -> libssl3t64). The image's own test resolves every library in the image.
missing = {p for p in needed - installed - base if p + "t64" not in installed}
check(not missing, f"Dockerfile runtime stage lacks packages for linked libraries: {sorted(missing)}")
print("\n".join(errors) or f"deploy/ and Dockerfile agree; runtime libraries: {sorted(needed)}")
sys.exit(1 if errors else 0)
