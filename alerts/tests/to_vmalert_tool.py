#!/usr/bin/python3
"""Runs the promtool rule tests on VictoriaMetrics' ruler: translates every test file (the
hand-written *-test.yaml and the scenarios, generated here from scenarios/*.py as
make_tests.py would, without writing them into the tree) into vmalert-tool's format in a
scratch directory, runs `vmalert-tool unittest` on each test, and checks that exactly the
known differences below fail.

  to_vmalert_tool.py [--out DIR] [--keep] [--only SUBSTRING] [--jobs N]

--out DIR writes the translation there (default: a temporary directory, removed unless
--keep); --only runs the tests whose "file :: name" contains SUBSTRING. The programs come from
VM_BIN (a directory holding vmalert-tool), else from `scripts/monitoring-releases.sh bin
victoriametrics`. The last line is "vmalert-tool: N passed, M failed"; the exit status is
non-zero when a test fails that is not a known difference, or a known difference passes.

What the translation changes, and why (vmalert-tool's documented test format and
app/vmalert-tool/unittest of the pinned release):
- `promql_expr_test` is `metricsql_expr_test`.
- An alert test names its rule group (`groupname`): vmalert labels alerts `alertgroup`.
- Series values are written out one by one with promtool's meaning of `a+bxc`, `axc`, `_xc`
  and `stale`: the input is promtool's by construction, whatever vmalert-tool's reading of
  the shorthand.
- vmalert writes a group's records to the storage only after the group has run, so a rule
  that reads a record of its own group sees the previous evaluation's (Prometheus: the one just
  made). vmalert's documented answer is separate groups, run in order; the translation splits
  each group into levels, a rule one level after the records of its group that it reads, and
  orders them in `group_eval_order`. A rule that reads a record written after it in its group
  (the previous evaluation's, on both rulers) stays at or before that record's level.
- A group's own `interval` is dropped: promtool evaluates every group at the test's
  evaluation interval, whatever the group asks.
- vmalert-tool stops at the first test file that fails, and names the test only in an alert
  test's failure: every test runs as its own file.
"""
import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

# "file :: test name" -> why it fails on vmalert and passes on Prometheus. Each was verified by
# hand (docs/dev/metricsql.md); the run fails when one of these passes or another test fails.
CHANGES = ("MetricsQL's changes() also counts the step into the window's first sample: from the last "
           "sample before the window, or from nothing when the series begins inside it "
           "(changes_prometheus() does not; see docs/dev/metricsql.md)")
KNOWN_DIFFERENCES = {
    "leadership-transfers-test.yaml :: leadership transfers are counted per member, read jitter aside, "
    "and alert at the threshold": CHANGES + ": a member's transfers in 1h count one more",
    "unheard-test.yaml :: a follower heard but stuck behind the log is named, as not catching up":
        CHANGES + ": a match index that never moved has moved, while its first sample is in the window",
    "unheard-test.yaml :: a match index that moved within the last two minutes is catching up":
        CHANGES + ": a match index last moved just before the window still moved",
    "clock-skew-test.yaml :: an exporter restarted with its clock 10 minutes ahead, then set right, is no "
    "leadership transfer": CHANGES + ": each member's transfers in 1h count one more, as in leadership-transfers-test.yaml",
    "scenarios/quorum-test.yaml :: frequent leader changes, then stable":
        CHANGES + ": one more leader change in 15m, in the alert's description",
}

# promtool's series shorthand: a value, optionally +/- a step, times a count.
NUMBER = r"[+-]?(?:\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|Inf|inf|NaN|nan)"
SHORTHAND = re.compile(rf"^({NUMBER})(?:([+-])({NUMBER}))?x(\d+)$")


def number(text):
    return float(text)


def show(v):
    if v != v:
        return "NaN"
    if v in (float("inf"), float("-inf")):
        return "+Inf" if v > 0 else "-Inf"
    return str(int(v)) if v == int(v) and abs(v) < 1e15 else repr(v)


def expand(values):
    """promtool's `values` written out one sample at a time: numbers, `_` and `stale`."""
    out = []
    for item in str(values).split():
        if item in ("_", "stale"):
            out.append(item)
            continue
        m = re.fullmatch(r"_x(\d+)", item)
        if m:
            out += ["_"] * int(m.group(1))
            continue
        m = SHORTHAND.match(item)
        if m:
            start, sign, step, times = m.group(1), m.group(2), m.group(3), int(m.group(4))
            a = number(start)
            b = 0.0 if step is None else number(step) * (-1 if sign == "-" else 1)
            for _ in range(times + 1):  # summed step by step, as promtool does
                out.append(show(a))
                a += b
            continue
        out.append(show(number(item)))  # a lone value; anything else is an error worth seeing
    return " ".join(out)


RECORD_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")


def split_groups(rule_files, out_dir, tag):
    """The rule files with every group split into levels (see above). Returns (paths,
    {original group: [level group names]}, {alert name: level group name})."""
    paths, levels_of, alert_group = [], {}, {}
    for i, path in enumerate(rule_files):
        doc = yaml.safe_load(open(path))
        groups = []
        for g in doc["groups"]:
            recorded = {r["record"] for r in g["rules"] if "record" in r}
            position = {}
            for k, r in enumerate(g["rules"]):
                if "record" in r:
                    position.setdefault(r["record"], k)
            level = []
            reads = [set(RECORD_NAME.findall(r["expr"])) & recorded for r in g["rules"]]
            for k, r in enumerate(g["rules"]):
                lv = 0
                for name in reads[k]:
                    if position[name] < k:
                        lv = max(lv, level[position[name]] + 1)
                # A record read before it is written keeps its readers' previous evaluation.
                if "record" in r and position[r["record"]] == k:
                    for j in range(k):
                        if r["record"] in reads[j]:
                            lv = max(lv, level[j])
                level.append(lv)
            count = max(level, default=0) + 1
            names = [g["name"] if count == 1 else f"{g['name']}/{n}" for n in range(count)]
            levels_of[g["name"]] = names
            for n in range(count):
                # Every group at the test's evaluation interval, as promtool runs them.
                part = {k: v for k, v in g.items() if k not in ("rules", "interval")}
                part["name"] = names[n]
                part["rules"] = [r for k, r in enumerate(g["rules"]) if level[k] == n]
                if part["rules"]:
                    groups.append(part)
                for r in part["rules"]:
                    if "alert" in r:
                        alert_group[r["alert"]] = names[n]
            levels_of[g["name"]] = [n for n in names if any(p["name"] == n for p in groups)]
        doc["groups"] = groups
        paths.append(os.path.join(out_dir, f"{tag}-rules-{i}.yaml"))
        with open(paths[-1], "w") as f:
            yaml.safe_dump(doc, f, sort_keys=False, width=4096)
    return paths, levels_of, alert_group


def promtool_files():
    """[(display name, directory its rule_files are relative to, parsed document)]: the
    hand-written tests and the scenarios, the latter generated in memory."""
    out = []
    for p in sorted(HERE.glob("*-test.yaml")):
        out.append((p.name, p.parent, yaml.safe_load(p.read_text())))
    sys.path.insert(0, str(HERE))
    spec = importlib.util.spec_from_file_location("make_tests", HERE / "make_tests.py")
    make_tests = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_tests)
    make_tests.register_alerts()
    for p in sorted((HERE / "scenarios").glob("*.py")):
        module = make_tests.load(p)
        text = make_tests.test_file(module)
        out.append((f"scenarios/{module.CONCERN}-test.yaml", HERE / "scenarios", yaml.safe_load(text)))
    return out


def seconds(text):
    """Seconds of a Prometheus duration such as 1h30m or 90s."""
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800, "y": 31536000}
    parts = re.findall(r"(\d+)(ms|s|m|h|d|w|y)", text)
    if not parts or "".join(n + u for n, u in parts) != text:
        sys.exit(f"to_vmalert_tool: not a duration: {text}")
    return sum(int(n) * units[u] for n, u in parts)


def translate(name, base, doc, out_dir, index):
    """[(test id, path of its vmalert-tool file, evaluations it replays)] for one promtool file."""
    tag = f"f{index:02d}"
    rule_files = [str((base / r).resolve()) for r in doc["rule_files"]]
    paths, levels_of, alert_group = split_groups(rule_files, out_dir, tag)
    order = []
    for g in doc.get("group_eval_order", []):
        order += levels_of.get(g, [g])
    for g, levels in levels_of.items():
        order += [n for n in levels if n not in order]
    cases = []
    for t, test in enumerate(doc["tests"]):
        tname = test.get("name") or f"test {t + 1}"
        vt = {"name": tname}
        if "interval" in test:
            vt["interval"] = test["interval"]
        vt["input_series"] = [{"series": s["series"], "values": expand(s["values"])}
                              for s in test.get("input_series", [])]
        if test.get("external_labels"):
            vt["external_labels"] = test["external_labels"]
        if test.get("alert_rule_test"):
            vt["alert_rule_test"] = []
            for a in test["alert_rule_test"]:
                if a["alertname"] not in alert_group:
                    sys.exit(f"{name} :: {tname}: no rule group holds the alert {a['alertname']}")
                case = {"eval_time": a["eval_time"], "groupname": alert_group[a["alertname"]],
                        "alertname": a["alertname"], "exp_alerts": a.get("exp_alerts") or []}
                vt["alert_rule_test"].append(case)
        if test.get("promql_expr_test"):
            vt["metricsql_expr_test"] = [{"expr": e["expr"], "eval_time": e["eval_time"],
                                          "exp_samples": e.get("exp_samples") or []}
                                         for e in test["promql_expr_test"]]
        extra = set(test) - {"name", "interval", "input_series", "external_labels", "alert_rule_test",
                             "promql_expr_test"}
        if extra:
            sys.exit(f"{name} :: {tname}: no translation for {sorted(extra)}")
        out = {"rule_files": paths, "evaluation_interval": doc.get("evaluation_interval", "1m"),
               "group_eval_order": order, "tests": [vt]}
        path = os.path.join(out_dir, f"{tag}-t{t:03d}.yaml")
        with open(path, "w") as f:
            yaml.safe_dump(out, f, sort_keys=False, width=4096)
        # vmalert-tool evaluates every group at each interval up to the last eval_time.
        last = max([seconds(str(c["eval_time"])) for c in vt.get("alert_rule_test", []) +
                    vt.get("metricsql_expr_test", [])], default=0)
        cases.append((f"{name} :: {tname}", path,
                      len(paths) * last / seconds(str(out["evaluation_interval"]))))
    return cases


def vm_bin():
    if os.environ.get("VM_BIN"):
        return os.environ["VM_BIN"]
    r = subprocess.run(["bash", str(ROOT / "scripts/monitoring-releases.sh"), "bin", "victoriametrics"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"to_vmalert_tool: no VictoriaMetrics release: {r.stderr.strip()}")
    return r.stdout.strip()


def run(tool, path, timeout):
    """(passed, output) of vmalert-tool on one file, in a directory of its own (its storage)."""
    work = tempfile.mkdtemp(prefix="vmalert-tool-")
    try:
        r = subprocess.run([tool, "unittest", f"--files={path}"], capture_output=True, text=True,
                           timeout=timeout, cwd=work, env=dict(os.environ, TMPDIR=work))
        out = r.stdout + r.stderr
        return r.returncode == 0 and "SUCCESS" in r.stdout and "FAILED" not in r.stdout, out
    except subprocess.TimeoutExpired as e:
        return False, f"timed out after {timeout} s\n{e.stdout or ''}"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def failures(output):
    """The failing checks of vmalert-tool's report, one a line."""
    lines = []
    for line in output.splitlines():
        s = line.strip()
        if s.startswith(("expr:", "groupname:", "exp:", "got:", "failed to", "err")) or "time:" in s:
            lines.append(s)
    return lines or output.strip().splitlines()[-5:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--only")
    ap.add_argument("--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    # Against a hung vmalert-tool, not a slow test: a replay of half a day takes minutes on a
    # loaded machine.
    ap.add_argument("--timeout", type=int, default=1200, help="seconds for one test")
    ap.add_argument("--verbose", action="store_true", help="print each failing check")
    args = ap.parse_args()
    tool = os.path.join(vm_bin(), "vmalert-tool")
    out_dir = args.out or tempfile.mkdtemp(prefix="ovn-raft-vmalert-tool-")
    os.makedirs(out_dir, exist_ok=True)
    try:
        cases = []
        for i, (name, base, doc) in enumerate(promtool_files()):
            cases += translate(name, base, doc, out_dir, i)
        if args.only:
            cases = [c for c in cases if args.only in c[0]]
        unknown = set(KNOWN_DIFFERENCES) - {c[0] for c in cases}
        def timed(case):
            t = time.monotonic()
            return (*run(tool, case[1], args.timeout), time.monotonic() - t)

        # The longest replays first, so that they do not end the run alone; reported in file order.
        with ThreadPoolExecutor(args.jobs) as pool:
            futures = {c[0]: pool.submit(timed, c) for c in sorted(cases, key=lambda c: -c[2])}
            results = [(c[0], *futures[c[0]].result()) for c in cases]
        passed = failed = 0
        bad = []
        for test, ok, output, took in results:
            known = KNOWN_DIFFERENCES.get(test)
            if ok and not known:
                passed += 1
                print(f"PASS  {test} ({took:.0f} s)")
            elif not ok and known:
                passed += 1
                print(f"PASS  {test} ({took:.0f} s; fails as known: {known})")
            elif ok:
                failed += 1
                bad.append(test)
                print(f"FAIL  {test} ({took:.0f} s): passes, but is listed as a known difference: {known}")
            else:
                failed += 1
                bad.append(test)
                print(f"FAIL  {test} ({took:.0f} s)")
                for line in failures(output)[:None if args.verbose else 12]:
                    print(f"        {line}")
        if not args.only:
            for test in sorted(unknown):
                failed += 1
                print(f"FAIL  {test}: listed as a known difference, but no such test")
        print(f"vmalert-tool: {passed} passed, {failed} failed")
        return 1 if failed else 0
    finally:
        if not args.out and not args.keep:
            shutil.rmtree(out_dir, ignore_errors=True)
        elif args.keep or args.out:
            print(f"translation kept in {out_dir}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
