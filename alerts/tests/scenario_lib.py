"""The vocabulary of the rule scenarios (scenarios/*.py): members as their exporters report
them, turned into the series the exporter serves (ovn_raft_server_info, view_info, member_info,
role, ...) in promtool's notation, and the checks: rule() for a recording rule's value at a
minute, alerts_at() for exactly which alerts are pending or firing at a minute, with their
rendered annotations.
"""
import hashlib

MINUTES = 75  # points 0..MINUTES at a 1m interval
NS, NB, CID = "kube-system", "OVN_Northbound", "c1a0"


class Member:
    def __init__(self, sid, ip, view, role="follower", leader="a1a1", present=None, **kw):
        self.sid, self.ip, self.view, self.role, self.leader = sid, ip, view, role, leader
        self.present = present or (lambda t: True)
        self.cid = kw.get("cid", CID)
        self.db = kw.get("db", NB)
        self.instance = kw.get("instance", f"{ip}:10476")
        self.connected = kw.get("connected", 1)
        self.term = kw.get("term", lambda t: 1)
        self.status = kw.get("status", "cluster_member")
        self.expected = kw.get("expected", 3)
        self.ages = kw.get("ages", {})  # member -> function(t) of last-message age, leader only
        self.match_lag = kw.get("match_lag", {})  # member -> entries behind, leader only
        self.uncommitted = kw.get("uncommitted", lambda t: 0)
        self.warnings = kw.get("warnings", 0)
        self.scrape_up = kw.get("scrape_up", lambda t: 1)
        # Whether its ovsdb-server runs (its exporter may be down: `present` says that), and
        # whether its peers can reach it (a firewall cuts it off).
        self.alive = kw.get("alive", self.present)
        self.reachable = kw.get("reachable", lambda t: True)
        self.links = kw.get("links", {})  # member -> function(t) overriding member_connected
        self.hosts = kw.get("hosts", [])  # --cluster.expected-hosts


def view_hash(view):
    text = "".join(f"{i}=tcp:{ip}:6643\n" for i, ip in sorted(view))
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def labels(d):
    return "{" + ",".join(f'{k}="{v}"' for k, v in d.items()) + "}"


def established(m, mid, everyone):
    """The value of m's ovn_raft_member_connected{member_id=mid}: an established connection
    needs both ends running and reachable."""
    return lambda t: int(m.reachable(t) and any(o.sid == mid and o.cid == m.cid and o.alive(t) and o.reachable(t)
                                                for o in everyone))


def member_series(m, everyone):
    """(series, value function of t) pairs for one member."""
    base = {"namespace": NS, "instance": m.instance, "job": "ovn-raft-exporter", "db": m.db}
    ident = dict(base, cluster_id=m.cid, server_id=m.sid)
    out = [
        ("up" + labels({k: base[k] for k in ("namespace", "instance", "job")}), m.scrape_up, True),
        ("ovn_raft_exporter_build_info" + labels(dict({k: base[k] for k in ("namespace", "instance", "job")},
                                                      version="0.1.0", revision="0000000")), lambda t: 1, False),
        ("ovn_raft_up" + labels(base), lambda t: 1, False),
        ("ovn_raft_server_info" + labels(dict(base, cluster_id=m.cid, server_id=m.sid,
                                               address=f"tcp:{m.ip}:6643", host=m.ip)), lambda t: 1, False),
        ("ovn_raft_view_info" + labels(dict(ident, view_hash=view_hash(m.view))), lambda t: 1, False),
        ("ovn_raft_has_leader" + labels(base), lambda t: 0 if m.leader is None else 1, False),
        ("ovn_raft_connected" + labels(base), lambda t: m.connected, False),
        ("ovn_raft_members" + labels(base), lambda t: len(m.view), False),
        ("ovn_raft_term" + labels(base), m.term, False),
        ("ovn_raft_election_timer_seconds" + labels(base), lambda t: 1, False),
        # A candidate starts an election every few seconds (OVS 3.x raises its term each time,
        # 3.3+ with pre-vote does not); the others' last one was long ago.
        ("ovn_raft_last_election_started_timestamp_seconds" + labels(dict(base, reason="timeout")),
         lambda t: 60 * t - 2 if m.role == "candidate" else -86400, False),
        ("ovn_raft_log_next_index" + labels(base), lambda t: 5001, False),
        ("ovn_raft_log_entries_uncommitted" + labels(base), m.uncommitted, False),
        ("ovn_raft_log_entries_unapplied" + labels(base), lambda t: 0, False),
        ("ovn_raft_parse_warnings" + labels(base), lambda t: m.warnings, False),
    ]
    if m.view:  # a joining member has no view, and no quorum
        out.append(("ovn_raft_quorum_size" + labels(base), lambda t: len(m.view) // 2 + 1, False))
    if m.expected:
        out.append(("ovn_raft_expected_members" + labels(base), lambda t: m.expected, False))
    for host in m.hosts:
        out.append(("ovn_raft_expected_host_info" + labels(dict(base, host=host)), lambda t: 1, False))
    for role in ("leader", "candidate", "follower"):
        out.append(("ovn_raft_role" + labels(dict(base, role=role)),
                    (lambda r: lambda t: 1 if m.role == r else 0)(role), False))
    for status in ("cluster_member", "joining", "disconnected"):
        out.append(("ovn_raft_status" + labels(dict(base, status=status)),
                    (lambda s: lambda t: 1 if m.status == s else 0)(status), False))
    if m.leader:
        out.append(("ovn_raft_leader_info" + labels(dict(base, leader_id=m.leader)), lambda t: 1, False))
    for mid, ip in m.view:
        out.append(("ovn_raft_member_info" + labels(dict(ident, member_id=mid, address=f"tcp:{ip}:6643",
                                                          host=ip)), lambda t: 1, False))
        member = dict(base, server_id=m.sid, member_id=mid)
        if mid != m.sid:
            out.append(("ovn_raft_member_connected" + labels(member), m.links.get(mid, established(m, mid, everyone)),
                        False))
        if m.role == "leader":
            lag = m.match_lag.get(mid, 1)
            out.append(("ovn_raft_member_match_index" + labels(member), (lambda l: lambda t: 5000 - l)(lag) if mid != m.sid else (lambda t: 5000), False))
            if mid != m.sid:
                age = m.ages.get(mid, lambda t: 0.2)
                out.append(("ovn_raft_member_last_message_age_seconds" + labels(member), age, False))
    return out


def input_series(members):
    """Merges the members' series; a member absent at t leaves its series absent at t."""
    merged = {}
    for m in members:
        for name, value, always in member_series(m, members):
            points = merged.setdefault(name, [None] * (MINUTES + 1))
            for t in range(MINUTES + 1):
                if always or m.present(t):
                    points[t] = value(t)
    # Where a series ends, Prometheus writes a staleness marker (the scrape no longer has it, or
    # failed): the old series then stops matching at once instead of lingering 5 minutes.
    def point(pts, t):
        if pts[t] is not None:
            return pts[t]
        return "stale" if t > 0 and pts[t - 1] is not None else "_"
    return [{"series": name, "values": notation([point(pts, t) for t in range(len(pts))])}
            for name, pts in merged.items()]


def notation(points):
    """A series' samples in promtool's own notation: a run of one value as `vxN` (v, N more
    times), of a whole number growing by a whole step as `a+bxN`, missing ones as `_xN` (N of
    them)."""
    out, i = [], 0
    while i < len(points):
        p = points[i]
        if p == "stale":
            out.append(p)
            i += 1
            continue
        j = i
        if p == "_":
            while j + 1 < len(points) and points[j + 1] == "_":
                j += 1
            out.append("_" if j == i else f"_x{j - i + 1}")
            i = j + 1
            continue
        numeric = lambda q: not isinstance(q, str)
        step = points[i + 1] - p if i + 1 < len(points) and numeric(points[i + 1]) else None
        whole = step is not None and all(float(v).is_integer() and abs(v) < 2**52 for v in (p, step))
        if step is not None and (step == 0 or whole):
            while j + 1 < len(points) and numeric(points[j + 1]) and points[j + 1] - points[j] == step:
                j += 1
        if j == i or (step != 0 and j == i + 1):  # a pair that is not a run reads better spelled out
            out.append(f"{p:g}")
            i += 1
            continue
        sign = "" if step == 0 else f"+{step:g}" if step > 0 else f"{step:g}"
        out.append(f"{p:g}{sign}x{j - i}")
        i = j + 1
    return " ".join(out)


A, B, C = ("a1a1", "10.0.0.1"), ("b2b2", "10.0.0.2"), ("c3c3", "10.0.0.3")
VIEW = [A, B, C]
ALL_ALERTS = [
    "OVNRaftExporterDown", "OVNRaftDatabaseUnreadable", "OVNRaftNoLeader", "OVNRaftMultipleLeaders",
    "OVNRaftLeaderDisagreement", "OVNRaftClusterIDSplit", "OVNRaftMembershipViewsDisagree",
    "OVNRaftNoMajorityView", "OVNRaftQuorumLost", "OVNRaftQuorumAtRisk", "OVNRaftStaleMember",
    "OVNRaftMemberNotReporting", "OVNRaftMemberOnUnexpectedHost", "OVNRaftExpectedHostWithoutMember",
    "OVNRaftViewDiffersFromMajority", "OVNRaftHostClaimedByMultipleIDs", "OVNRaftTooManyMembers",
    "OVNRaftTooFewMembers", "OVNRaftExpectedSizeUnknown", "OVNRaftFrequentElections", "OVNRaftMemberCampaigning",
    "OVNRaftMemberStuckJoining", "OVNRaftMemberDisconnected", "OVNRaftFollowerLagging", "OVNRaftCommitBacklogGrowing",
    "OVNRaftApplyBacklogGrowing", "OVNRaftStatusNotUnderstood",
]
CLUSTER = {"namespace": NS, "db": NB, "cluster_id": CID}


def healthy(**kw):
    return [Member(*A, VIEW, role="leader", **kw.get("a", {})), Member(*B, VIEW, **kw.get("b", {})),
            Member(*C, VIEW, **kw.get("c", {}))]


def render(template, lbls, value, queries):
    """The subset of Go templates the alerts use: labels, value, an if/else on db, query."""
    sockets = {"OVN_Southbound": "ovnsb_db", "OVN_IC_Northbound": "ovn_ic_nb_db",
               "OVN_IC_Southbound": "ovn_ic_sb_db"}
    text = template.replace('{{ if eq $labels.db "OVN_Southbound" }}ovnsb_db'
                            '{{ else if eq $labels.db "OVN_IC_Northbound" }}ovn_ic_nb_db'
                            '{{ else if eq $labels.db "OVN_IC_Southbound" }}ovn_ic_sb_db'
                            '{{ else }}ovnnb_db{{ end }}', sockets.get(lbls.get("db"), "ovnnb_db"))
    while "{{ with printf" in text:
        start = text.index("{{ with printf")
        end = text.index("{{ end }}", start) + len("{{ end }}")
        text = text[:start] + f"{queries.pop(0):g}" + text[end:]
    text = text.replace("{{ $value }}", f"{value:g}")
    for k, v in lbls.items():
        text = text.replace("{{ $labels." + k + " }}", v)
    return text


def alerts_at(t, firing, silent=ALL_ALERTS):
    """Expect exactly `firing` at t, nothing else. `firing` maps an alert name to
    (labels, value[, values of the template's queries]) tuples."""
    out = []
    for name in silent:
        exp = []
        for lbls, value, *queries in firing.get(name, []):
            annotations = {k: render(v, lbls, value, list(queries[0]) if queries else [])
                           for k, v in ANNOTATIONS[name].items()}
            exp.append({"exp_labels": dict(lbls, severity=SEVERITY[name]), "exp_annotations": annotations})
        out.append({"eval_time": f"{t}m", "alertname": name, "exp_alerts": exp})
    for name in firing:
        assert name in silent, name
    return out


def rule(t, expr, samples):
    return {"expr": expr, "eval_time": f"{t}m",
            "exp_samples": [{"labels": l, "value": v} for l, v in samples]}


def cluster(record, extra=None):
    return record + labels(dict(CLUSTER, **(extra or {})))


# Filled from ../ovn-raft-alerts.yaml by make_tests.py before any scenario runs.
SEVERITY = {}
ANNOTATIONS = {}


# Time and identities the scenarios share.
gone5 = lambda t: t < 5  # noqa: E731  present for the first 5 minutes only
back = lambda t: t >= 5  # noqa: E731  present from 5m on
old_age = lambda t: 60.0 * t + 30  # noqa: E731  a member the leader has not heard since before 0m
a_age = lambda t: max(0.2, 60.0 * (t - 5))  # noqa: E731  heard until 5m, silent after
D = ("d4d4", "10.0.0.4")
