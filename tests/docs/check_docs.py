#!/usr/bin/python3
"""Every fenced block of README.md and docs/**/*.md is either exercised here or listed, with its
reason, in tests/docs/illustrations.yaml. By kind:
- Prometheus configs (scrape_configs): each job's label, after its relabelling, is selected by
  the job matcher every shipped rule uses (read from alerts/*.yaml); each static target uses
  the exporter's default port or one an exporter of the same guide section is given
  (--web.listen-address in its blocks, rendered); each file_sd file is a block of the same
  guide that renders to targets; rule_files name what the package installs (debian/*.install);
  `promtool check config` accepts it. The jobs the same tools already run beside ours are not selected.
- Jinja-templated blocks (kolla-ansible, OpenStack-Ansible plays and file_sd files): rendered
  with the inventory groups the tool really has and the variables it defines, at their defaults
  (tests/docs/upstream.yaml), an Ansible loop at its first item (item=1); a group it lacks
  fails.
- Helm values (openstack-helm's extraObjects): every .Values path exists in the chart's values;
  with --full, `helm template` renders them through a template of extra-manifests.yaml's rule
  and the Kubernetes schemas validate the objects.
- kustomizations: `kubectl kustomize` with the Components from deploy/kubernetes and the
  upstream objects of tests/deploy/upstream.
- systemd drop-ins: `systemd-analyze verify` of the shipped unit with the drop-in, in a root.
- Alertmanager configs: `amtool check-config`. jsonnet: evaluates against mixin/, and every
  _config key it sets exists.
- Shell: every dotted flag, environment variable and subcommand is one the programs' --help
  knows; repository paths exist; ovn_raft_* names are metrics of the golden pages or recorded
  by the rules; a localhost port is the exporter's default.
Links: every relative link of README.md, CONTRIBUTING.md, RUNBOOK.md and docs/ names a file of the
repository and, with an anchor into a Markdown file, one of its headings (as GitHub spells them);
docs/README.md links every document of docs/.
Each host guide (docs/hosts.md, each tool's section of docs/openstack.md) sets the expected size
in one of its blocks. Any block also gets the flag check. A listed block that no longer exists, or that is exercised
anyway, fails. openstack-network-exporter's ovn_raft_* names (tests/docs/
openstack-network-exporter.yaml) must not be ours.

  check_docs.py [--full] [--exporter BIN] [--report BIN]
  check_docs.py --emit-prometheus DIR --targets HOST:PORT,...   (tests/docs/docs_prometheus.sh)
"""
import argparse
import fnmatch
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import jinja2
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
# Kinds whose rendering needs kubectl and helm (tests/deploy's npm packages): rendered by
# --full, checked statically without it.
FULL_KINDS = ("kustomization", "helm values")
# docs/dev/ (measurements, design notes) is checked as the user guides are.
DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("**/*.md"))
FACTS = yaml.safe_load((HERE / "upstream.yaml").read_text())


# --- the blocks ---------------------------------------------------------------------------
class Block:
    def __init__(self, path, line, info, text, section):
        self.path, self.line, self.info, self.text, self.section = path, line, info, text, section
        self.first = next((s.strip() for s in text.splitlines() if s.strip()), "")
        self.where = f"{path.relative_to(ROOT)}:{line}"

    def comment_path(self):
        """The file a block says it is, on its first line: `# /etc/...`."""
        m = re.match(r"^#\s+(/\S+)", self.first)
        return m.group(1) if m else None


def blocks_of(path):
    lines = path.read_text().split("\n")
    out, section, i = [], "", 0
    while i < len(lines):
        h = re.match(r"^##\s+(.*)", lines[i])
        if h:
            section = h.group(1).strip()
        m = re.match(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)", lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = len(m.group(1)), m.group(2), m.group(3)
        j = i + 1
        while j < len(lines) and not re.match(r"^\s*" + re.escape(fence) + r"\s*$", lines[j]):
            j += 1
        body = "\n".join(s[indent:] if s[:indent].strip() == "" else s for s in lines[i + 1:j])
        out.append(Block(path, i + 1, info, body + "\n", section))
        i = j + 1
    return out


def prose_lines(path, code=False):
    """(line number, line) outside fenced blocks; inline code removed, or with code=True only
    its backticks."""
    fence = None
    for i, line in enumerate(path.read_text().split("\n"), 1):
        m = re.match(r"^\s*(`{3,}|~{3,})", line)
        if m and (fence is None or m.group(1).startswith(fence)):
            fence = None if fence else m.group(1)
            continue
        if fence is None:
            yield i, line.replace("`", "") if code else re.sub(r"`+[^`]*`+", "", line)


def links_of(path):
    """(line number, target) of each relative Markdown link."""
    for i, line in prose_lines(path):
        for target in re.findall(r"\]\(([^)\s]+)\)", line):
            if not re.match(r"^[a-z]+:", target):
                yield i, target


def heading_anchors(path):
    """The anchors GitHub gives a Markdown file's headings."""
    seen, out = {}, set()
    for _, line in prose_lines(path, code=True):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


# --- what the code and the rules say ------------------------------------------------------
def help_of(binary):
    text = subprocess.run([binary, "--help"], capture_output=True, text=True, check=True).stdout
    name = Path(binary).name
    return {
        "flags": set(re.findall(r"--([a-z][a-z0-9.-]*)=VALUE", text)) | {"help", "version"},
        "env": set(re.findall(r"\[([A-Z][A-Z0-9_]+)\]", text)),
        "subcommands": set(re.findall(r"^\s+(?:usage: )?%s ([a-z][a-z-]+)" % re.escape(name), text, re.M)),
        "port": (re.search(r"--web\.listen-address=VALUE.*?\(default :(\d+)\)", text, re.S) or [None, None])[1],
    }


def rules_selector():
    """The job matchers of the rules and alerts over the exporters' series (one, as shipped)."""
    found = set()
    for f in sorted((ROOT / "alerts").glob("*.yaml")):
        for group in yaml.safe_load(f.read_text())["groups"]:
            for rule in group["rules"]:
                found |= set(re.findall(r'\bjob\s*(=~|=)\s*"((?:[^"\\]|\\.)*)"', rule["expr"]))
    if not found:
        sys.exit("check_docs: no job matcher in alerts/*.yaml")
    return sorted((op, value.replace("\\\\", "\\")) for op, value in found)


def selected(selectors, job):
    """Whether every rule's matcher selects the job (a rule that does not ignores its series)."""
    return all(re.fullmatch(value, job) is not None if op == "=~" else job == value for op, value in selectors)


def describe(selectors):
    return " and ".join(f'job{op}"{value}"' for op, value in selectors)


def golden_metrics():
    types = {}
    for f in sorted((ROOT / "tests/golden").glob("*.prom")):
        for name, kind in re.findall(r"^# TYPE (\S+) (\S+)", f.read_text(), re.M):
            types[name] = kind
    return types


def recorded_names():
    names = set()
    for f in sorted((ROOT / "alerts").glob("*.yaml")):
        for group in yaml.safe_load(f.read_text())["groups"]:
            names |= {r["record"] for r in group["rules"] if "record" in r}
    return names


def installed_rule_files():
    """Installed path -> source file, from the package's install lists."""
    out = {}
    for f in (ROOT / "debian").glob("*.install"):
        for line in f.read_text().splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0].startswith("alerts/"):
                for src in glob.glob(str(ROOT / parts[0])):
                    out["/" + parts[1].strip("/") + "/" + Path(src).name] = Path(src)
    return out


# --- relabelling, as Prometheus does it for the labels the checker can know -----------------
def relabel(labels, configs):
    """labels after relabel_configs (replace, keep, drop, labelmap), or None when dropped.
    A rule reading a label that is not known here (service discovery) leaves a KeyError."""
    labels = dict(labels)
    for c in configs or []:
        action = c.get("action", "replace")
        sources = c.get("source_labels", [])
        for s in sources:
            if s not in labels and s.startswith("__meta_"):
                raise KeyError(s)
        value = c.get("separator", ";").join(labels.get(s, "") for s in sources)
        regex = "^(?:" + str(c.get("regex", "(.*)")) + ")$"
        m = re.match(regex, value)
        if action == "replace":
            if m:
                repl = re.sub(r"\$\{?(\w+)\}?", lambda g: "\\g<%s>" % g.group(1), str(c.get("replacement", "$1")))
                labels[c["target_label"]] = m.expand(repl)
        elif action == "keep":
            if not m:
                return None
        elif action == "drop":
            if m:
                return None
        elif action == "labelmap":
            for k in list(labels):
                mm = re.match(regex, k)
                if mm:
                    labels[mm.expand(re.sub(r"\$(\d+)", r"\\\1", str(c.get("replacement", "$1"))))] = labels[k]
        else:
            raise KeyError(f"action {action}")
    return labels


# --- the checker --------------------------------------------------------------------------
class Checker:
    def __init__(self, args):
        self.args = args
        self.exporter = help_of(args.exporter)
        self.report = help_of(args.report)
        self.selector = rules_selector()
        self.golden = golden_metrics()
        self.recorded = recorded_names()
        self.passed = self.failed = self.n_illustrations = self.skipped = 0
        self.illustrations = yaml.safe_load((HERE / "illustrations.yaml").read_text()) or []
        self.used = set()
        self.work = Path(tempfile.mkdtemp(prefix="check-docs."))

    def close(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def result(self, where, what, problems):
        if problems:
            self.failed += 1
            print(f"FAIL {where} {what}")
            for p in problems:
                print(f"       {p}")
        else:
            self.passed += 1
            print(f"ok   {where} {what}")

    def facts_for(self, block):
        for key, facts in FACTS.items():
            if facts.get("section") and facts["section"] in block.section:
                return key, facts
        return None, None

    # -- flags, names and paths, in any block --
    def flag_problems(self, text):
        problems = []
        for line in text.splitlines():
            who = self.report if "ovn-raft-report" in line else self.exporter
            prog = "ovn-raft-report" if who is self.report else "ovn-raft-exporter"
            for flag in re.findall(r"(?<![\w-])--([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+)", line):
                if flag not in who["flags"]:
                    problems.append(f"--{flag}: not a flag of {prog} (its --help)")
            for env in re.findall(r"\b(OVN_RAFT_(?:EXPORTER|REPORT)_[A-Z0-9_]+)", line):
                owner = self.report if "_REPORT_" in env else self.exporter
                if env not in owner["env"]:
                    problems.append(f"{env}: no flag reads it (--help)")
            for prog, sub in re.findall(r"(?:^|[|;&(`]\s*|/)(ovn-raft-(?:exporter|report))\s+([a-z][a-z-]*)\b(?![.:/])", line):
                subs = (self.report if prog.endswith("report") else self.exporter)["subcommands"]
                if sub not in subs:
                    problems.append(f"`{prog} {sub}`: not a subcommand (--help)")
        return problems

    def shell_problems(self, block):
        problems, checked = self.flag_problems(block.text), 0
        text = block.text
        checked += len(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*\.", text)) + len(re.findall(r"\bovn-raft-(?:exporter|report)\b", text))
        for path in re.findall(r"(?<![\w./-])((?:scripts|deploy|tests|alerts|dashboards|mixin|docs)/[\w./-]+)", text):
            checked += 1
            if not (ROOT / path).exists():
                problems.append(f"{path}: no such file in the repository")
        for comp in re.findall(r"--post-renderer-args\s+(\S+)", text):
            checked += 1
            if not (ROOT / "deploy/kubernetes" / comp / "kustomization.yaml").exists():
                problems.append(f"--post-renderer-args {comp}: no Component deploy/kubernetes/{comp}")
        for name in re.findall(r"\b(ovn_raft_[a-z0-9_:]+)", text):
            checked += 1
            if name not in self.golden and name not in self.recorded:
                problems.append(f"{name}: neither a metric of tests/golden nor a recorded rule")
        for port in re.findall(r"\blocalhost:(\d+)", text):
            checked += 1
            if port != self.exporter["port"]:
                problems.append(f"localhost:{port}: the exporter's default port is {self.exporter['port']}")
        return problems, checked

    # -- Prometheus --
    def job_labels(self, job):
        """(job label, target labels) per target group of a scrape job, after relabelling."""
        groups = [(g.get("labels", {}), g.get("targets", [])) for g in job.get("static_configs", [])]
        groups += [({}, None)] * len(job.get("file_sd_configs", []))
        out = []
        for labels, targets in groups:
            base = {"job": job["job_name"], **labels}
            for t in targets or ["file_sd"]:
                out.append((relabel({**base, "__address__": t}, job.get("relabel_configs")), t))
        return out

    def file_sd_block(self, block, path):
        """The block of the same guide that is the file_sd file `path` names (through the
        tool's mapping of its configuration directory into the container)."""
        _, facts = self.facts_for(block)
        for b in blocks_of(block.path):
            p = b.comment_path()
            if not p:
                continue
            if p == path:
                return b
            if facts and "extras" in facts and p.startswith(facts["extras"]["host"]) and \
                    facts["extras"]["container"] + p[len(facts["extras"]["host"]):] == path:
                return b
        return None

    def render_jinja(self, block, text=None):
        """A block rendered as its tool would: groups of three hosts named after the group,
        each host's address 192.0.2.N, the tool's variables at their defaults (upstream.yaml),
        an Ansible loop's `item` at its first value, 1; a group the tool lacks raises."""
        key, facts = self.facts_for(block)
        if not facts or "groups" not in facts:
            raise RuntimeError(f"no inventory facts for section {block.section!r} in tests/docs/upstream.yaml")

        class NoSuchGroup(Exception):
            pass

        class Groups(dict):
            def __getitem__(self, g):
                if g not in facts["groups"]:
                    raise NoSuchGroup(f"{key} has no inventory group {g!r} (tests/docs/upstream.yaml)")
                return [f"{g}-{i}" for i in (1, 2, 3)]

        hosts = {f"{g}-{i}": f"192.0.2.{i}" for g in facts["groups"] for i in (1, 2, 3)}
        env = jinja2.Environment(undefined=jinja2.ChainableUndefined)
        env.filters["kolla_address"] = lambda _net, host, **_: hosts[host]
        env.filters["put_address_in_context"] = lambda a, _ctx: f"[{a}]" if ":" in a else a
        try:
            return env.from_string(text or block.text).render(
                groups=Groups(), hostvars={h: {"ansible_host": a} for h, a in hosts.items()},
                inventory_hostname="ovn-database-1", api_interface_address="192.0.2.1",
                item=1, **facts.get("variables", {}))
        except NoSuchGroup as e:
            raise RuntimeError(str(e))

    def guide_ports(self, block):
        """The ports the exporters of a block's guide section listen on: the default, and each
        --web.listen-address its blocks give (templated ones rendered as their tool would)."""
        key, _ = self.facts_for(block)
        ports = {self.exporter["port"]}
        for b in blocks_of(block.path):
            if self.facts_for(b)[0] != key or "--web.listen-address=" not in b.text:
                continue
            text = b.text
            if key and ("{{" in text or "{%" in text):
                try:
                    text = self.render_jinja(b)
                except Exception:  # reported where that block itself is checked
                    continue
            ports |= set(re.findall(r"--web\.listen-address=\S*:(\d+)(?!\d)", text))
        return ports

    def file_sd_targets(self, block):
        text = self.render_jinja(block) if "{%" in block.text or "{{" in block.text else block.text
        groups = yaml.safe_load(text)
        if not isinstance(groups, list) or not all(isinstance(g, dict) and g.get("targets") for g in groups):
            raise RuntimeError("not a file_sd file: a list of {targets: [...]}")
        return [t for g in groups for t in g["targets"]]

    def prometheus_problems(self, block, config):
        problems = []
        ports = self.guide_ports(block)
        for job in config.get("scrape_configs", []):
            name = job.get("job_name")
            try:
                labelled = self.job_labels(job)
            except KeyError as e:
                problems.append(f"job {name}: its relabelling reads {e}, which only service discovery knows")
                continue
            for labels, target in labelled:
                if labels is None:
                    problems.append(f"job {name}: target {target} dropped by its own relabelling")
                    continue
                if not selected(self.selector, labels["job"]):
                    problems.append(f"job {name}: its series carry job=\"{labels['job']}\", which the rules' "
                                    f"{describe(self.selector)} (alerts/*.yaml) does not select: "
                                    "the recording rules and alerts ignore them")
                if target != "file_sd" and target.rsplit(":", 1)[-1] not in ports:
                    problems.append(f"job {name}: target {target} is on no port an exporter of this guide "
                                    f"listens on ({', '.join(sorted(ports))})")
            for sd in job.get("file_sd_configs", []):
                for path in sd.get("files", []):
                    b = self.file_sd_block(block, path)
                    if not b:
                        problems.append(f"job {name}: the file_sd file {path} is no block of this guide")
                        continue
                    try:
                        sd_ports = self.guide_ports(b)
                        for t in self.file_sd_targets(b):
                            if t.rsplit(":", 1)[-1] not in sd_ports:
                                problems.append(f"{b.where}: target {t} is on no port an exporter of this "
                                                f"guide listens on ({', '.join(sorted(sd_ports))})")
                    except RuntimeError as e:
                        problems.append(f"{b.where}: {e}")
        # rule_files: what the package installs, all of it
        installed = installed_rule_files()
        rules = config.get("rule_files")
        tmp = Path(tempfile.mkdtemp(dir=self.work))
        if rules:
            matched = set()
            for pattern in rules:
                hit = [p for p in installed if fnmatch.fnmatch(p, pattern)]
                if not hit:
                    problems.append(f"rule_files: {pattern} names none of the files the package installs "
                                    f"({', '.join(sorted(installed))})")
                matched |= set(hit)
            if installed and matched and matched != set(installed):
                problems.append(f"rule_files: leaves out {', '.join(sorted(set(installed) - matched))}")
            staged = []
            for p, src in installed.items():
                (tmp / Path(p).name).write_text(src.read_text())
                staged.append(str(tmp / Path(p).name))
            config = dict(config, rule_files=staged)
        f = tmp / "prometheus.yml"
        f.write_text(yaml.safe_dump(config))
        r = subprocess.run(["promtool", "check", "config", str(f)], capture_output=True, text=True)
        if r.returncode != 0:
            problems.append("promtool check config: " + (r.stdout + r.stderr).strip().replace("\n", " | "))
        return problems

    # -- Helm values of openstack-helm --
    def helm_values_problems(self, block, doc):
        problems = self.flag_problems(block.text)
        key, facts = self.facts_for(block)
        values = (facts or {}).get("values")
        if values is None:
            return [f"no chart values facts for section {block.section!r} (tests/docs/upstream.yaml)"]
        for ref in re.findall(r"\.Values\.([\w.]+)", block.text):
            v = values
            for part in ref.split("."):
                if not isinstance(v, dict) or part not in v:
                    problems.append(f".Values.{ref}: not a value of the chart ({facts['repository']})")
                    break
                v = v[part]
        objects = doc["extraObjects"]
        objects = list(objects.values()) if isinstance(objects, dict) else objects
        sj = facts.get("service_job")
        services = [o for o in objects if isinstance(o, dict) and o.get("kind") == "Service"]
        if sj and not services:
            problems.append("no Service: the chart's Prometheus finds exporters through annotated Services")
        for s in services:
            ann = s.get("metadata", {}).get("annotations", {})
            if str(ann.get(sj["keep_annotation"])) != "true":
                problems.append(f"Service {s['metadata']['name']}: without {sj['keep_annotation']}: \"true\" it is not scraped")
            if str(ann.get(sj["port_annotation"])) != self.exporter["port"]:
                problems.append(f"Service {s['metadata']['name']}: {sj['port_annotation']} is not {self.exporter['port']}")
            if not selected(self.selector, s["metadata"]["name"]):
                problems.append(f"Service {s['metadata']['name']}: the chart's Prometheus names the job after it, "
                                "and the rules do not select that job")
        if self.args.full:
            problems += self.helm_render_problems(block, facts)
        return problems

    def helm_render_problems(self, block, facts):
        sys.path.insert(0, str(ROOT / "tests/deploy"))
        import check_components  # kubectl, helm and the schemas of the deploy checks

        chart = Path(tempfile.mkdtemp(dir=self.work)) / "chart"
        (chart / "templates").mkdir(parents=True)
        (chart / "Chart.yaml").write_text("apiVersion: v2\nname: ovn\nversion: 0.1.0\n")
        (chart / "values.yaml").write_text(yaml.safe_dump(facts["values"]))
        # The rule of the chart's templates/extra-manifests.yaml: every item through tpl.
        (chart / "templates/extra.yaml").write_text(
            '{{- range .Values.extraObjects }}\n---\n{{ if typeIs "string" . }}{{ tpl . $ }}'
            '{{ else }}{{ tpl (toYaml .) $ }}{{ end }}\n{{- end }}\n')
        (chart / "user-values.yaml").write_text(block.text)
        tool = check_components.tools()
        env = dict(os.environ, HELM_CACHE_HOME=f"{chart}/c", HELM_CONFIG_HOME=f"{chart}/g", HELM_DATA_HOME=f"{chart}/d")
        r = subprocess.run([tool["helm"], "template", "ovn", chart, "-n", "openstack", "-f", chart / "user-values.yaml"],
                           capture_output=True, text=True, env=env)
        if r.returncode != 0:
            return [f"helm template: {r.stderr.strip()}"]
        objects = [o for o in yaml.safe_load_all(r.stdout) if o]
        problems = check_components.schema_problems(objects)
        for o in objects:
            for c in o.get("spec", {}).get("template", {}).get("spec", {}).get("containers", []):
                problems += self.flag_problems("\n".join(c.get("args", []) + c.get("command", [])))
        print(f"       helm template: {', '.join(o['kind'] + '/' + o['metadata']['name'] for o in objects)}")
        return problems

    # -- kustomize --
    def kustomize_problems(self, block, doc):
        kubectl = shutil.which("kubectl")
        node_kubectl = ROOT / "tests/deploy/node_modules/.k8s-tools/kubectl/kubectl"
        if node_kubectl.exists():
            kubectl = str(node_kubectl)
        if not kubectl:
            return ["no kubectl (npm ci in tests/deploy)"] if self.args.full else None
        work = Path(tempfile.mkdtemp(dir=self.work))
        upstream = ROOT / "tests/deploy/upstream/kube-ovn-v1.16.yaml"
        problems = []
        comps = []
        for c in doc.get("components", []):
            m = re.match(r"https://github\.com/[^/]+/ovn-raft-exporter//(deploy/[\w/.-]+)\?ref=\w+$", c)
            if not m or not (ROOT / m.group(1)).is_dir():
                problems.append(f"component {c}: not a Component of this repository")
                continue
            comps.append(os.path.relpath(ROOT / m.group(1), work))
        shutil.copy(upstream, work / "ovn-central.yaml")
        k = dict(doc, components=comps, resources=["ovn-central.yaml"])
        (work / "kustomization.yaml").write_text(yaml.safe_dump(k))
        r = subprocess.run([kubectl, "kustomize", str(work)], capture_output=True, text=True)
        if r.returncode != 0:
            problems.append(f"kubectl kustomize: {r.stderr.strip()}")
        else:
            objs = [o for o in yaml.safe_load_all(r.stdout) if o]
            images = [c["image"] for o in objs for c in o.get("spec", {}).get("template", {}).get("spec", {}).get("containers", [])]
            for i in doc.get("images", []):
                if not any(img.startswith(i["newName"]) for img in images):
                    problems.append(f"images: {i['name']} matches no container of the render")
        return problems + self.flag_problems(block.text)

    # -- systemd --
    def dropin_problems(self, block):
        """A drop-in (or a whole unit) at the path its first line names, verified with the
        package's units (deploy/systemd) in a root of this host's units."""
        path = block.comment_path() or ""
        m = re.match(r"^/etc/systemd/system/([\w@.-]+\.(?:service|socket))\.d/[\w.-]+\.conf$", path)
        whole = re.match(r"^/(?:etc|lib|usr/lib)/systemd/system/([\w@.-]+\.(?:service|socket))$", path)
        if not m and not whole:
            return ["a unit or drop-in says where it goes on its first line: "
                    "# /etc/systemd/system/UNIT.d/NAME.conf (or the unit's own path)"]
        unit = (m or whole).group(1)
        root = self.work / "root"
        shutil.rmtree(root, ignore_errors=True)
        (root / "lib/systemd/system").mkdir(parents=True)
        subprocess.run(["cp", "-a", "/lib/systemd/system/.", str(root / "lib/systemd/system/")], check=True)
        for src in (ROOT / "deploy/systemd").glob("*.s*"):
            shutil.copy(src, root / "lib/systemd/system" / src.name)
        if m and not (root / "lib/systemd/system" / unit).exists():
            return [f"{unit}: no such unit in deploy/systemd"]
        # Every program the units run, from this host (the exporter from the build).
        progs = {"/usr/bin/ovn-raft-exporter"}
        for src in (ROOT / "deploy/systemd").glob("*.s*"):
            for line in src.read_text().splitlines():
                exe = re.match(r"Exec\w+=[-@:+!]*(/\S+)", line)
                if exe:
                    progs.add(exe.group(1))
        for prog in sorted(progs):
            dest_prog = root / prog.lstrip("/")
            dest_prog.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(self.args.exporter if prog.endswith("/ovn-raft-exporter") else prog, dest_prog)
        dest = root / path.lstrip("/")
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(block.text)
        r = subprocess.run(["systemd-analyze", "verify", "--man=no", f"--root={root}", str(root / path.lstrip("/") if whole
                                                                                            else root / "lib/systemd/system" / unit)],
                           capture_output=True, text=True)
        out = (r.stdout + r.stderr).strip()
        return ([f"systemd-analyze verify: {out or 'exit ' + str(r.returncode)}"] if r.returncode or out else []) + \
            self.flag_problems(block.text)

    def amtool_problems(self, block):
        f = self.work / "alertmanager.yml"
        f.write_text(block.text)
        r = subprocess.run(["amtool", "check-config", str(f)], capture_output=True, text=True)
        return [f"amtool check-config: {(r.stdout + r.stderr).strip()}"] if r.returncode else []

    def jsonnet_problems(self, block):
        r = subprocess.run(["jsonnet", "-J", str(ROOT), "-e", block.text], capture_output=True, text=True)
        if r.returncode:
            return [f"jsonnet: {r.stderr.strip()}"]
        keys = json.loads(subprocess.run(
            ["jsonnet", "-J", str(ROOT), "-e", "std.objectFieldsAll((import 'mixin/mixin.libsonnet')._config)"],
            capture_output=True, text=True, check=True).stdout)
        problems = []
        for body in re.findall(r"_config\+::\s*\{(.*?)\}\s*\}", block.text, re.S):
            for k in re.findall(r"(\w+)\s*\+?:", body):
                if k not in keys:
                    problems.append(f"_config.{k}: no such setting in mixin/config.libsonnet")
        return problems

    def play_problems(self, block):
        text = self.render_jinja(block)
        plays = yaml.safe_load(text)
        _, facts = self.facts_for(block)
        problems = self.flag_problems(text)
        for play in plays:
            for g in str(play.get("hosts", "")).split(":"):
                if g and g not in facts["groups"] and g != "all":
                    problems.append(f"hosts: {g}: no such inventory group ({facts['repository']})")
        for v in re.findall(r"--cluster\.expected-members=(\S+?)[\"'\s]", text):
            if not v.isdigit():
                problems.append(f"--cluster.expected-members={v}: renders to no number")
        return problems

    # -- one block --
    def classify(self, block):
        """(kind, problems) for an exercised block; (None, None) when the checker cannot run it."""
        if block.info in ("sh", "bash", "console", "shell"):
            problems, checked = self.shell_problems(block)
            return ("shell", problems) if checked else (None, None)
        if block.info == "ini" and re.search(r"^\[(Service|Unit|Install|Socket)\]", block.text, re.M):
            return "systemd drop-in", self.dropin_problems(block)
        if block.info == "jsonnet":
            return "jsonnet", self.jsonnet_problems(block)
        if block.info in ("yaml", "yml"):
            templated = "{%" in block.text
            try:
                docs = [] if templated else list(yaml.safe_load_all(block.text))
                doc = docs[0] if len(docs) == 1 else None  # several objects: none of the kinds here
            except yaml.YAMLError as e:
                return "yaml", [f"does not parse: {e}"]
            if isinstance(doc, dict) and "scrape_configs" in doc:
                return "prometheus config", self.prometheus_problems(block, doc) + self.flag_problems(block.text)
            if isinstance(doc, dict) and doc.get("kind") == "Kustomization":
                problems = self.kustomize_problems(block, doc)
                return "kustomization", problems
            if isinstance(doc, dict) and "extraObjects" in doc:
                return "helm values", self.helm_values_problems(block, doc)
            if isinstance(doc, dict) and ("route" in doc or "inhibit_rules" in doc or "receivers" in doc):
                return "alertmanager config", self.amtool_problems(block)
            if isinstance(doc, list) and doc and isinstance(doc[0], dict) and "hosts" in doc[0] and "tasks" in doc[0]:
                try:
                    return "ansible play", self.play_problems(block)
                except RuntimeError as e:
                    return "ansible play", [str(e)]
            if templated and "targets" in block.text:
                try:
                    self.file_sd_targets(block)
                    return "file_sd template", self.flag_problems(block.text)
                except RuntimeError as e:
                    return "file_sd template", [str(e)]
        return None, None

    def listed(self, block):
        rel = str(block.path.relative_to(ROOT))
        for i, e in enumerate(self.illustrations):
            if e["file"] == rel and e["first_line"].strip() == block.first:
                return i, e
        return None, None

    def run(self):
        for path in DOCS:
            for block in blocks_of(path):
                kind, problems = self.classify(block)
                if self.args.full:  # only what needs the deploy checks' tools
                    if kind in FULL_KINDS:
                        self.result(block.where, kind + " (rendered)", problems or [])
                    continue
                if kind in FULL_KINDS and problems is None:
                    self.skipped += 1
                    print(f"skip {block.where} {kind}: rendered by the full tier (check_docs.py --full)")
                    continue
                i, entry = self.listed(block)
                if i is not None:
                    self.used.add(i)
                if kind and entry:
                    self.result(block.where, kind, problems + ["listed as an illustration but exercised: "
                                                               "remove it from tests/docs/illustrations.yaml"])
                elif kind:
                    self.result(block.where, kind, problems)
                elif entry:
                    self.n_illustrations += 1
                    print(f"--   {block.where} illustration: {entry['reason']}")
                    problems = self.flag_problems(block.text)
                    if problems:
                        self.result(block.where, "illustration's flags", problems)
                else:
                    self.result(block.where, block.info or "block", [
                        "neither exercised nor listed: add it to tests/docs/illustrations.yaml "
                        f"(file: {block.path.relative_to(ROOT)}, first_line: {block.first!r}, reason: ...)"])
        if self.args.full:
            return
        for i, e in enumerate(self.illustrations):
            if i not in self.used:
                self.result(e["file"], "illustrations.yaml", [f"lists a block that is not there: {e['first_line']!r}"])
        self.neighbours()
        self.expected_sizes()
        self.links()

    def links(self):
        """Relative links resolve: the file exists, and an anchor into Markdown is a heading."""
        problems, n = [], 0
        for path in [ROOT / "CONTRIBUTING.md", ROOT / "RUNBOOK.md"] + DOCS:
            for line_no, target in links_of(path):
                n += 1
                where = f"{path.relative_to(ROOT)}:{line_no}"
                file, _, anchor = target.partition("#")
                dest = (path.parent / file).resolve() if file else path
                if not dest.exists():
                    problems.append(f"{where}: {target}: no such file")
                elif anchor and dest.suffix == ".md" and anchor not in heading_anchors(dest):
                    problems.append(f"{where}: {target}: no such heading in {dest.relative_to(ROOT)}")
        index = {(ROOT / "docs" / t.partition("#")[0]).resolve() for _, t in links_of(ROOT / "docs/README.md")}
        for doc in sorted((ROOT / "docs").glob("**/*.md")):
            if doc.name != "README.md" and doc.resolve() not in index:
                problems.append(f"docs/README.md: no link to {doc.relative_to(ROOT)}")
        self.result("README.md, CONTRIBUTING.md, RUNBOOK.md, docs/", f"links: {n} relative links", problems)

    def expected_sizes(self):
        """Each host guide sets the expected size: on a host nothing else knows it."""
        problems = []
        sections = [("docs/hosts.md", None)] + [("docs/openstack.md", f["section"]) for f in FACTS.values()
                                                if f.get("section")]
        for doc, section in sections:
            text = "".join(b.text for b in blocks_of(ROOT / doc) if section is None or section in b.section)
            if not re.search(r"--cluster\.expected-(members|hosts)=", text):
                problems.append(f"{doc} {section or ''}: no block sets --cluster.expected-members")
        self.result("docs/hosts.md, docs/openstack.md", f"expected sizes: {len(sections)} host guides set one", problems)

    def neighbours(self):
        """The tools' own exporters in the same Prometheus: none of their jobs selected by our
        rules, and none of openstack-network-exporter's ovn_raft_* names ours."""
        problems = []
        for key, facts in FACTS.items():
            for job in facts.get("neighbour_jobs", []):
                if selected(self.selector, job):
                    problems.append(f"{key}'s job {job} is selected by the rules' job matcher")
        one = yaml.safe_load((HERE / "openstack-network-exporter.yaml").read_text())
        for name, kind in one["metrics"].items():
            if name in self.golden:
                problems.append(f"{name}: openstack-network-exporter's {kind} is our {self.golden[name]} too")
            if name in self.recorded:
                problems.append(f"{name}: openstack-network-exporter's {kind} is one of our recorded names")
        self.result("tests/docs/openstack-network-exporter.yaml",
                    f"neighbours: {len(one['metrics'])} ovn_raft_* names of openstack-network-exporter "
                    f"({one['commit'][:12]}) against our {len(self.golden)} and {len(self.recorded)} recorded", problems)

    # -- the full tier's Prometheus configs --
    def emit_prometheus(self, out, targets):
        """One directory per scrape-config block: its config as written, targets replaced by the
        real exporters (hosts and port only), the shipped rules where it names none, every
        interval 2 s; index.tsv lists directory, block and the job label each job gives."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        installed = installed_rule_files()
        index = []
        for path in DOCS:
            for block in blocks_of(path):
                if block.info not in ("yaml", "yml") or "{%" in block.text:
                    continue
                docs = list(yaml.safe_load_all(block.text))
                doc = docs[0] if len(docs) == 1 else None
                if not (isinstance(doc, dict) and "scrape_configs" in doc):
                    continue
                slug = re.sub(r"[^\w]+", "-", block.where)
                d = out / slug
                d.mkdir(exist_ok=True)
                doc["global"] = {"scrape_interval": "2s", "scrape_timeout": "1s", "evaluation_interval": "2s"}
                doc["rule_files"] = [str(src) for p, src in installed.items()
                                     if not doc.get("rule_files") or any(fnmatch.fnmatch(p, r) for r in doc["rule_files"])]
                jobs = []
                for job in doc["scrape_configs"]:
                    scs = job.get("static_configs", [])
                    if len(scs) > 1:
                        # groups that label their targets apart (one pod each): moved one for one
                        i = 0
                        for sc in scs:
                            sc["targets"] = [targets[(i + k) % len(targets)] for k in range(len(sc["targets"]))]
                            i += len(sc["targets"])
                    else:
                        for sc in scs:
                            sc["targets"] = list(targets)
                    for n, sd in enumerate(job.get("file_sd_configs", [])):
                        files = []
                        for f in sd["files"]:
                            b = self.file_sd_block(block, f)
                            rendered = self.file_sd_targets(b)
                            local = d / f"file_sd-{n}-{len(files)}.yml"
                            # the guide's own targets, moved to the exporters here one for one
                            local.write_text(yaml.safe_dump([{"targets": [targets[i % len(targets)]
                                                                          for i, _ in enumerate(rendered)]}]))
                            files.append(str(local))
                        sd["files"] = files
                    jobs += sorted({labels["job"] for labels, _ in self.job_labels(job) if labels})
                (d / "prometheus.yml").write_text(yaml.safe_dump(doc, sort_keys=False))
                index.append(f"{slug}\t{block.where}\t{','.join(jobs)}")
        (out / "index.tsv").write_text("\n".join(index) + "\n")
        print("\n".join(index))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--exporter", default=str(ROOT / "build/exporter/ovn-raft-exporter"))
    p.add_argument("--report", default=str(ROOT / "build/report/ovn-raft-report"))
    p.add_argument("--full", action="store_true", help="also render Helm values with helm (npm ci in tests/deploy)")
    p.add_argument("--emit-prometheus", metavar="DIR")
    p.add_argument("--targets", default="")
    args = p.parse_args()
    checker = Checker(args)
    try:
        if args.emit_prometheus:
            checker.emit_prometheus(args.emit_prometheus, args.targets.split(","))
            return 0
        checker.run()
    finally:
        checker.close()
    if not args.full:
        print(f"illustrations: {checker.n_illustrations} listed with their reasons (tests/docs/illustrations.yaml); "
              f"{checker.skipped} left to the full tier")
    print(f"docs{' full' if args.full else ''}: {checker.passed} passed, {checker.failed} failed")
    return 1 if checker.failed else 0


if __name__ == "__main__":
    sys.exit(main())
