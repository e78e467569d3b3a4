#!/usr/bin/python3
"""Checks that tests/deploy/upstream/ still says what the upstream projects ship: renders each
release's own objects the way users render them (helm template of the charts, install.sh's
ovn.yaml heredoc, ovn-kubernetes' j2 template) from git checkouts of the projects, and compares
the facts the deploy checks rely on with our fixture: kind, name, namespace, replicas and
update strategy, labels, ServiceAccount, host network, seccomp profile, container names, each
container's runAsUser, whether it sets NODE_IPS, the volumes mounted at /var/run/ovn and
/etc/ovn and their types, the claim templates.

  verify_upstream.py --kube-ovn GIT_DIR --ovn-kubernetes GIT_DIR

GIT_DIR: a clone (bare or not) of github.com/kubeovn/kube-ovn and of
github.com/ovn-kubernetes/ovn-kubernetes holding the tags below. To refresh a fixture for a
new release: add its row, run this, and edit the fixture until it agrees. scripts/test.sh runs
it when OVN_RAFT_UPSTREAM_KUBE_OVN and OVN_RAFT_UPSTREAM_OVN_KUBERNETES name such clones."""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
UPSTREAM = HERE / "upstream"
SOCKETS = "/var/run/ovn"
FILES = "/etc/ovn"
sys.path.insert(0, str(HERE))
from check_components import tools  # noqa: E402  (kubectl and helm from the pinned npm package)


def checkout(git_dir, ref, paths, into):
    """The files of `paths` at `ref`, extracted under `into` (no work tree needed)."""
    archive = subprocess.run(["git", "-C", git_dir, "archive", ref] + paths, capture_output=True, check=True)
    subprocess.run(["tar", "x", "-C", into], input=archive.stdout, check=True)
    for link in Path(into).rglob("*"):  # charts link dashboards from outside the chart
        if link.is_symlink() and not link.exists():
            link.unlink()
    return Path(into)


def helm_template(chart, *args):
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, HELM_CACHE_HOME=f"{home}/c", HELM_CONFIG_HOME=f"{home}/f", HELM_DATA_HOME=f"{home}/d")
        out = subprocess.run([str(tools()["helm"]), "template", "release", str(chart), *args],
                             capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip())
    return [d for d in yaml.safe_load_all(out.stdout) if d]


def install_sh(script, output="ovn.yaml", **extra):
    """The objects install.sh (or install-ic-server.sh) writes to `output`, its variables at their
    defaults but for `extra`. The heredoc may call the script's functions, and on main takes
    fragments that the script computes before it for single-replica mode (ENABLE_SINGLE_REPLICA_OVN,
    OVN_CENTRAL_*): both run first."""
    text = Path(script).read_text()
    heredoc = re.search(r"cat <<EOF > %s\n(.*?)\nEOF\n" % re.escape(output), text, re.S).group(1)
    prelude = "".join(re.findall(r"^function \w+ \{\n.*?^\}\n", text, re.S | re.M))
    single = re.search(r'^if \[ "\$ENABLE_SINGLE_REPLICA_OVN" = "true" \]; then\n  # In single-replica.*?'
                       r'(?=^# BEGIN GENERATED|^cat <<)', text, re.S | re.M)
    prelude += single.group(0) if single else ""
    run_as = re.search(r"^RUN_AS_USER=(\d+)", text, re.M)
    run_as = run_as.group(1) if run_as else "65534"  # install-ic-server.sh writes its users out
    env = {"RUN_AS_USER": run_as, "REGISTRY": "docker.io/kubeovn", "VERSION": "v0", "IMAGE_PULL_POLICY": "IfNotPresent",
           "addresses": "10.0.0.1,10.0.0.2,10.0.0.3", "count": "3", "LOG_DIR": "/var/log", "ENABLE_SSL": "false",
           "TS_NUM": "3", "OVN_LEADER_PROBE_INTERVAL": "5", "OVN_CENTRAL_PVC_SIZE": "10Gi",
           "PATH": os.environ["PATH"], **extra}
    out = subprocess.run(["bash", "-c", "{ :\n" + prelude + "\n} >/dev/null\ncat <<EOF\n" + heredoc + "\nEOF"],
                         capture_output=True, text=True, env=env, check=True)  # the prelude's echo aside
    return [d for d in yaml.safe_load_all(out.stdout) if d]


def j2(template):
    import jinja2  # Debian's python3-jinja2
    return [d for d in yaml.safe_load_all(jinja2.Template(Path(template).read_text()).render()) if d]


def facts(objects, kind, name):
    w = next(o for o in objects if o and o.get("kind") == kind and o["metadata"]["name"] == name)
    pod = w["spec"]["template"]["spec"]
    volumes = {v["name"]: sorted(k for k in v if k != "name") for v in pod.get("volumes", [])}
    out = {
        "kind": kind, "name": name, "namespace": w["metadata"].get("namespace"),
        "replicas": int(w["spec"].get("replicas", 1)),
        "strategy": (w["spec"].get("strategy") or w["spec"].get("updateStrategy") or {}).get("type"),
        "selector": w["spec"]["selector"]["matchLabels"],
        "pod labels": {k: v for k, v in w["spec"]["template"]["metadata"]["labels"].items()
                       if k in ("app", "name", "app.kubernetes.io/name")},
        "serviceAccountName": pod.get("serviceAccountName"), "hostNetwork": pod.get("hostNetwork", False),
        "seccompProfile": pod.get("securityContext", {}).get("seccompProfile"),
        "claims": sorted(t["metadata"]["name"] for t in w["spec"].get("volumeClaimTemplates", [])),
    }
    for group in ("initContainers", "containers"):
        for c in pod.get(group, []):
            mounts = [m["name"] for m in c.get("volumeMounts", []) if m["mountPath"].rstrip("/") == SOCKETS]
            files = [m["name"] for m in c.get("volumeMounts", []) if m["mountPath"].rstrip("/") == FILES]
            out[f"{group} {c['name']}"] = {
                "runAsUser": int(c.get("securityContext", {}).get("runAsUser", -1)),
                "NODE_IPS": any(e["name"] == "NODE_IPS" for e in c.get("env", [])),
                "socket volume": [(m, volumes.get(m)) for m in mounts],
                "files volume": [(m, volumes.get(m)) for m in files]}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kube-ovn", required=True)
    ap.add_argument("--ovn-kubernetes", required=True)
    a = ap.parse_args()
    hosts = "10.0.0.1\\,10.0.0.2\\,10.0.0.3"
    # (fixture, description, render: tmp dir -> objects, kind, name)
    cases = [
        ("kube-ovn-v1.16.yaml", "Kube-OVN v1.16.2 charts/kube-ovn",
         lambda d: helm_template(checkout(a.kube_ovn, "v1.16.2", ["charts"], d) / "charts/kube-ovn",
                                 "--namespace", "kube-system", "--set", f"MASTER_NODES={hosts}"),
         "Deployment", "ovn-central"),
        ("kube-ovn-v2-v1.16.yaml", "Kube-OVN v1.16.2 charts/kube-ovn-v2",
         lambda d: helm_template(checkout(a.kube_ovn, "v1.16.2", ["charts"], d) / "charts/kube-ovn-v2",
                                 "--namespace", "kube-system", "--set", "masterNodes={10.0.0.1,10.0.0.2,10.0.0.3}"),
         "Deployment", "ovn-central"),
        ("kube-ovn-install-v1.16.yaml", "Kube-OVN v1.16.2 dist/images/install.sh",
         lambda d: install_sh(checkout(a.kube_ovn, "v1.16.2", ["dist/images/install.sh"], d) / "dist/images/install.sh"),
         "Deployment", "ovn-central"),
        ("kube-ovn-v2-main-hcp.yaml", "Kube-OVN main charts/kube-ovn-v2, central.hcp.enabled",
         lambda d: helm_template(checkout(a.kube_ovn, "HEAD", ["charts"], d) / "charts/kube-ovn-v2",
                                 "--namespace", "kube-system", "--set", "central.hcp.enabled=true",
                                 "--set", "central.hcp.nbAddress=tcp:ovn-nb.example.com:6641",
                                 "--set", "central.hcp.sbAddress=tcp:ovn-sb.example.com:6642",
                                 "--set", "masterNodes={10.0.0.1}"),
         "StatefulSet", "ovn-central"),
        ("kube-ovn-main-single.yaml", "Kube-OVN main charts/kube-ovn, OVN_CENTRAL_MODE=single",
         lambda d: helm_template(checkout(a.kube_ovn, "HEAD", ["charts"], d) / "charts/kube-ovn",
                                 "--namespace", "kube-system", "--set", "OVN_CENTRAL_MODE=single"),
         "Deployment", "ovn-central"),
        ("kube-ovn-main-single.yaml", "Kube-OVN main dist/images/install.sh, ENABLE_SINGLE_REPLICA_OVN=true",
         lambda d: install_sh(checkout(a.kube_ovn, "HEAD", ["dist/images/install.sh"], d) / "dist/images/install.sh",
                              ENABLE_SINGLE_REPLICA_OVN="true"),
         "Deployment", "ovn-central"),
        ("kube-ovn-ic-server-v1.16.yaml", "Kube-OVN v1.16.2 dist/images/install-ic-server.sh",
         lambda d: install_sh(checkout(a.kube_ovn, "v1.16.2", ["dist/images/install-ic-server.sh"], d)
                              / "dist/images/install-ic-server.sh", "ovn-ic-server.yaml"),
         "Deployment", "ovn-ic-server"),
        ("kube-ovn-ic-server-v1.16.yaml", "Kube-OVN main dist/images/install-ic-server.sh",
         lambda d: install_sh(checkout(a.kube_ovn, "HEAD", ["dist/images/install-ic-server.sh"], d)
                              / "dist/images/install-ic-server.sh", "ovn-ic-server.yaml"),
         "Deployment", "ovn-ic-server"),
        ("kube-ovn-v1.12.yaml", "Kube-OVN v1.12.0 charts (the chart was charts/ itself then)",
         lambda d: helm_template(checkout(a.kube_ovn, "v1.12.0", ["charts"], d) / "charts",
                                 "--namespace", "kube-system", "--set", f"MASTER_NODES={hosts}",
                                 "--set", "replicaCount=3"),  # v1.12's chart counted no nodes itself
         "Deployment", "ovn-central"),
        ("ovnkube-db-raft-v1.2.yaml", "ovn-kubernetes v1.2.0 dist/templates/ovnkube-db-raft.yaml.j2",
         lambda d: j2(checkout(a.ovn_kubernetes, "v1.2.0", ["dist/templates/ovnkube-db-raft.yaml.j2"], d)
                      / "dist/templates/ovnkube-db-raft.yaml.j2"),
         "StatefulSet", "ovnkube-db"),
        ("ovnkube-db-raft-v1.3.yaml", "ovn-kubernetes v1.3.0 helm/ovn-kubernetes (tags.ovnkube-db-raft)",
         lambda d: helm_template(checkout(a.ovn_kubernetes, "v1.3.0", ["helm"], d) / "helm/ovn-kubernetes",
                                 "-f", f"{d}/helm/ovn-kubernetes/values-no-ic.yaml", "--set", "tags.ovnkube-db-raft=true",
                                 "--set", "k8sAPIServer=https://10.0.0.1:6443"),
         "StatefulSet", "ovnkube-db"),
    ]
    passed = failed = 0
    for fixture, what, render, kind, name in cases:
        ours = facts([d for d in yaml.safe_load_all((UPSTREAM / fixture).read_text()) if d], kind, name)
        try:
            with tempfile.TemporaryDirectory() as d:
                theirs = facts(render(d), kind, name)
        except Exception as e:  # a release that cannot be rendered is a failure, said plainly
            print(f"FAILED {fixture}: {what} could not be rendered: {e}")
            failed += 1
            continue
        diff = {k: (ours.get(k), theirs.get(k)) for k in sorted(set(ours) | set(theirs)) if ours.get(k) != theirs.get(k)}
        if diff:
            failed += 1
            print(f"FAILED {fixture} differs from {what}:")
            for k, (o, t) in diff.items():
                print(f"    {k}: ours {o}, upstream {t}")
        else:
            passed += 1
            users = {k: v["runAsUser"] for k, v in theirs.items() if isinstance(v, dict) and "runAsUser" in v}
            print(f"ok {fixture} = {what}: ServiceAccount {theirs['serviceAccountName']}, users {users}")
    print(f"upstream: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
