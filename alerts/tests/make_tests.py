#!/usr/bin/python3
"""Writes scenarios/*-test.yaml, the generated `promtool test rules` cases of alerts/.

Each scenario describes members as their exporters would report them, minute by minute; this
script turns them into the series the exporter serves (ovn_raft_server_info, view_info,
member_info, role, ...). The expectations are written here by hand, per scenario.
Run it after changing a scenario; scripts/test.sh fails when the YAML is out of date.
"""
import hashlib
import sys

import yaml
from pathlib import Path

MINUTES = 75  # points 0..MINUTES at a 1m interval
NS, NB, CID = "kube-system", "OVN_Northbound", "c1a0"


class Member:
    def __init__(self, sid, ip, view, role="follower", leader="a1a1", present=None, **kw):
        self.sid, self.ip, self.view, self.role, self.leader = sid, ip, view, role, leader
        self.present = present or (lambda t: True)
        self.cid = kw.get("cid", CID)
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
    base = {"namespace": NS, "instance": m.instance, "job": "ovn-raft-exporter", "db": NB}
    ident = dict(base, cluster_id=m.cid, server_id=m.sid)
    out = [
        ("up" + labels({k: base[k] for k in ("namespace", "instance", "job")}), m.scrape_up, True),
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
    "OVNRaftTooFewMembers", "OVNRaftFrequentElections", "OVNRaftMemberCampaigning", "OVNRaftMemberStuckJoining",
    "OVNRaftMemberDisconnected", "OVNRaftFollowerLagging", "OVNRaftCommitBacklogGrowing",
    "OVNRaftApplyBacklogGrowing", "OVNRaftStatusNotUnderstood",
]
CLUSTER = {"namespace": NS, "db": NB, "cluster_id": CID}


def healthy(**kw):
    return [Member(*A, VIEW, role="leader", **kw.get("a", {})), Member(*B, VIEW, **kw.get("b", {})),
            Member(*C, VIEW, **kw.get("c", {}))]


def render(template, lbls, value, queries):
    """The subset of Go templates the alerts use: labels, value, an if/else on db, query."""
    text = template.replace('{{ if eq $labels.db "OVN_Southbound" }}ovnsb_db{{ else }}ovnnb_db{{ end }}',
                            "ovnsb_db" if lbls.get("db") == "OVN_Southbound" else "ovnnb_db")
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


SEVERITY = {}
ANNOTATIONS = {}


def scenarios():
    gone5 = lambda t: t < 5
    back = lambda t: t >= 5
    # 1. Healthy: every recording rule at its resting value, no alert.
    yield "healthy", healthy(), [
        rule(30, "ovn_raft_cluster:reporters:count", [(cluster("ovn_raft_cluster:reporters:count"), 3)]),
        rule(30, "ovn_raft_cluster:views_agree:bool", [(cluster("ovn_raft_cluster:views_agree:bool"), 1)]),
        rule(30, "ovn_raft_cluster:majority_view:bool", [(cluster("ovn_raft_cluster:majority_view:bool"), 1)]),
        rule(30, "ovn_raft_cluster:members_union:count", [(cluster("ovn_raft_cluster:members_union:count"), 3)]),
        rule(30, "ovn_raft_cluster_member:silent:named_by", []),
        rule(30, "ovn_raft_cluster:conflicting_hosts:count", [(cluster("ovn_raft_cluster:conflicting_hosts:count"), 0)]),
        rule(30, "ovn_raft_cluster:leaders:count", [(cluster("ovn_raft_cluster:leaders:count"), 1)]),
        rule(30, "ovn_raft_cluster:leader_ids:count", [(cluster("ovn_raft_cluster:leader_ids:count"), 1)]),
        rule(30, "ovn_raft_cluster:live_members:count", [(cluster("ovn_raft_cluster:live_members:count"), 3)]),
        rule(30, "ovn_raft_cluster_member:alive:bool",
             [(cluster("ovn_raft_cluster_member:alive:bool", {"member_id": s}), 1) for s in ("a1a1", "b2b2", "c3c3")]),
        rule(30, "ovn_raft_cluster:leader_term:max", [(cluster("ovn_raft_cluster:leader_term:max"), 1)]),
        rule(30, "ovn_raft_cluster:quorum:size", [(cluster("ovn_raft_cluster:quorum:size"), 2)]),
        rule(30, "ovn_raft_cluster:failure_tolerance:count", [(cluster("ovn_raft_cluster:failure_tolerance:count"), 1)]),
        rule(30, "ovn_raft_cluster:members_vs_expected:diff", [(cluster("ovn_raft_cluster:members_vs_expected:diff"), 0)]),
        rule(30, "ovn_raft_cluster:term:spread", [(cluster("ovn_raft_cluster:term:spread"), 0)]),
        rule(30, "ovn_raft_cluster_reporter:majority_view:bool",
             [(cluster("ovn_raft_cluster_reporter:majority_view:bool", {"server_id": s}), 1) for s in ("a1a1", "b2b2", "c3c3")]),
    ] + alerts_at(30, {})

    # 2. Member 3 restarted with a fresh database: new ID d4d4 at 10.0.0.3, old c3c3 stays.
    stale_view = VIEW + [("d4d4", "10.0.0.3")]
    old_age = lambda t: 60.0 * t + 30
    members = [Member(*A, stale_view, role="leader", ages={"c3c3": old_age}),
               Member(*B, stale_view), Member("d4d4", "10.0.0.3", stale_view, instance="10.0.0.3:10476")]
    yield "fresh restart leaves a stale ID", members, [
        rule(20, "ovn_raft_cluster_member:stale_suspect:named_by",
             [(cluster("ovn_raft_cluster_member:stale_suspect:named_by",
                       {"member_id": "c3c3", "host": "10.0.0.3", "address": "tcp:10.0.0.3:6643"}), 3)]),
        rule(20, "ovn_raft_cluster_host:member_ids:count > 1",
             [(cluster("ovn_raft_cluster_host:member_ids:count", {"host": "10.0.0.3"}), 2)]),
        rule(20, "ovn_raft_cluster:failure_tolerance:count", [(cluster("ovn_raft_cluster:failure_tolerance:count"), 0)]),
        rule(20, "ovn_raft_cluster:members_vs_expected:diff", [(cluster("ovn_raft_cluster:members_vs_expected:diff"), 1)]),
    ] + alerts_at(5, {}) + alerts_at(20, {
        "OVNRaftStaleMember": [(dict(CLUSTER, member_id="c3c3", host="10.0.0.3", address="tcp:10.0.0.3:6643"), 3)],
        "OVNRaftHostClaimedByMultipleIDs": [(dict(CLUSTER, host="10.0.0.3"), 2)],
        "OVNRaftTooManyMembers": [(CLUSTER, 1)],
        "OVNRaftQuorumAtRisk": [(CLUSTER, 0)],
    })

    # 2b. Member 3 restarted with a fresh database at 5m while its exporter is down
    # (the pod restart took the sidecar down with it). Both IDs on 10.0.0.3 are silent, both
    # are named by the two reporting members; the leader hears the new d4d4, not c3c3. Only
    # c3c3 may ever be named, at every evaluation over the whole for: window, and the down
    # exporter explains the silence of both (no OVNRaftMemberNotReporting).
    restarted = lambda t: t >= 5
    before = lambda t: t < 5
    c_age = lambda t: 0.2 if t < 5 else 60.0 * (t - 5) + 30
    down3 = lambda t: 1 if t < 5 else 0
    members = [Member(*A, VIEW, role="leader", present=before), Member(*B, VIEW, present=before),
               Member(*A, stale_view, role="leader", present=restarted, ages={"c3c3": c_age}),
               Member(*B, stale_view, present=restarted),
               Member(*C, VIEW, present=before, scrape_up=down3),
               Member("d4d4", "10.0.0.3", stale_view, instance="10.0.0.3:10476", present=lambda t: False,
                      alive=restarted, scrape_up=down3)]
    suspect_c3 = [(cluster("ovn_raft_cluster_member:stale_suspect:score", {"member_id": "c3c3"}), 158)]
    yield "fresh restart while its exporter is down names only the old ID", members, [
        rule(t, "ovn_raft_cluster_member:stale_suspect:score", suspect_c3) for t in range(5, 22)
    ] + [
        rule(20, "ovn_raft_cluster_member:alive:bool",
             [(cluster("ovn_raft_cluster_member:alive:bool", {"member_id": s}), 1) for s in ("a1a1", "b2b2", "d4d4")]),
        rule(20, "ovn_raft_cluster_member:stale_undecided:score", []),
        rule(20, "ovn_raft_cluster_member:exporter_down:bool",
             [(cluster("ovn_raft_cluster_member:exporter_down:bool", {"member_id": s}), 1) for s in ("c3c3", "d4d4")]),
    ] + alerts_at(21, {
        "OVNRaftStaleMember": [(dict(CLUSTER, member_id="c3c3", host="10.0.0.3", address="tcp:10.0.0.3:6643"), 2)],
        "OVNRaftHostClaimedByMultipleIDs": [(dict(CLUSTER, host="10.0.0.3"), 2)],
        "OVNRaftTooManyMembers": [(CLUSTER, 1)],
        "OVNRaftQuorumAtRisk": [(CLUSTER, 0)],
        "OVNRaftExporterDown": [({"namespace": NS, "instance": "10.0.0.3:10476", "job": "ovn-raft-exporter"}, 0)],
    })

    # 2c. The ordinary fresh restart, with a race: at 5m the follower lists the new d4d4
    # before the leader's report does. d4d4 is named by fewer members (more suspect by score),
    # but an ID first named under a minute ago is never a candidate; the leader hears it from
    # 6m on.
    members = [Member(*A, VIEW, role="leader", present=lambda t: t < 6, ages={"c3c3": c_age}),
               Member(*A, stale_view, role="leader", present=lambda t: t >= 6, ages={"c3c3": c_age}),
               Member(*B, VIEW, present=before), Member(*B, stale_view, present=restarted),
               Member(*C, VIEW, present=before),
               Member("d4d4", "10.0.0.3", stale_view, instance="10.0.0.3:10476", present=lambda t: t >= 6,
                      alive=restarted)]
    yield "a new ID listed before the leader vouches for it is never named", members, [
        rule(t, "ovn_raft_cluster_member:stale_suspect:score",
             [(cluster("ovn_raft_cluster_member:stale_suspect:score", {"member_id": "c3c3"}), 157 if t > 5 else 158)])
        for t in range(5, 20)
    ] + alerts_at(21, {
        "OVNRaftStaleMember": [(dict(CLUSTER, member_id="c3c3", host="10.0.0.3", address="tcp:10.0.0.3:6643"), 3)],
        "OVNRaftHostClaimedByMultipleIDs": [(dict(CLUSTER, host="10.0.0.3"), 2)],
        "OVNRaftTooManyMembers": [(CLUSTER, 1)],
        "OVNRaftQuorumAtRisk": [(CLUSTER, 0)],
    })

    # 2d. Tie: member 3 was restarted fresh, then its node died. Neither c3c3 nor d4d4 is
    # heard by anyone, both score alike, and the excess is one: the evidence cannot tell which
    # to remove, so neither is named; stale_undecided lists both.
    dead = lambda t: 60.0 * t + 30
    members = [Member(*A, stale_view, role="leader", ages={"c3c3": dead, "d4d4": dead}), Member(*B, stale_view),
               Member("d4d4", "10.0.0.3", stale_view, instance="10.0.0.3:10476", present=lambda t: False,
                      alive=lambda t: False, scrape_up=lambda t: 0)]
    yield "two dead IDs tied for one excess: neither is named", members, [
        rule(20, "ovn_raft_cluster_member:stale_candidate:score",
             [(cluster("ovn_raft_cluster_member:stale_candidate:score", {"member_id": s}), 158) for s in ("c3c3", "d4d4")]),
        rule(20, "ovn_raft_cluster_member:stale_suspect:score", []),
        rule(20, "ovn_raft_cluster_member:stale_undecided:score",
             [(cluster("ovn_raft_cluster_member:stale_undecided:score", {"member_id": s}), 158) for s in ("c3c3", "d4d4")]),
    ] + alerts_at(20, {
        "OVNRaftHostClaimedByMultipleIDs": [(dict(CLUSTER, host="10.0.0.3"), 2)],
        "OVNRaftTooManyMembers": [(CLUSTER, 1)],
        "OVNRaftQuorumLost": [(CLUSTER, -1, [2, 3])],
        # Its exporter never reported an identity here: nothing ties the two IDs to it.
        "OVNRaftMemberNotReporting": [(dict(CLUSTER, member_id=s), 2) for s in ("c3c3", "d4d4")],
        "OVNRaftExporterDown": [({"namespace": NS, "instance": "10.0.0.3:10476", "job": "ovn-raft-exporter"}, 0)],
    })

    # 2e. The top candidate beats the next: excess one, c3c3 (host shared with the live e5e5)
    # above x9x9 (named by one member only, on a host of its own): c3c3 alone is named, x9x9
    # neither named nor undecided. With an excess of two, both are named.
    X9 = ("x9x9", "10.0.0.9")
    for excess in (1, 2):
        big = VIEW + [("e5e5", "10.0.0.3"), X9]
        small = VIEW + [("e5e5", "10.0.0.3")]
        members = [Member(*A, big, role="leader", expected=5 - excess, ages={"c3c3": dead, "x9x9": dead}),
                   Member(*B, small, expected=5 - excess),
                   Member("e5e5", "10.0.0.3", small, instance="10.0.0.3:10476", expected=5 - excess)]
        named = ("c3c3",) if excess == 1 else ("c3c3", "x9x9")
        yield f"ranking with an excess of {excess}", members, [
            rule(20, "ovn_raft_cluster_member:stale_suspect:score",
                 [(cluster("ovn_raft_cluster_member:stale_suspect:score", {"member_id": s}), {"c3c3": 157, "x9x9": 109}[s])
                  for s in named]),
            rule(20, "ovn_raft_cluster_member:stale_undecided:score", []),
        ]

    # 2f. One follower's view lags with a stale ID the leader and the majority dropped: the
    # quorum is the leader's view's (2 of 3), not the lagging view's (3 of 4): no risk.
    members = [Member(*A, VIEW, role="leader"), Member(*B, VIEW), Member(*C, VIEW + [X9])]
    yield "a stale ID in one lagging view does not raise the quorum", members, [
        rule(20, "ovn_raft_cluster:quorum:size", [(cluster("ovn_raft_cluster:quorum:size"), 2)]),
        rule(20, "ovn_raft_cluster:failure_tolerance:count", [(cluster("ovn_raft_cluster:failure_tolerance:count"), 1)]),
    ]

    # 2g. The same lagging view while no leader reports (mid-election): the quorum comes from
    # the voices, and the lagging reporter is a minority, so it is the majority view's (2), not 3.
    members = [Member(*A, VIEW, leader=None), Member(*B, VIEW, leader=None), Member(*C, VIEW + [X9], leader=None)]
    yield "a stale ID in one lagging view does not raise the quorum without a leader", members, [
        rule(20, "ovn_raft_cluster:quorum:size", [(cluster("ovn_raft_cluster:quorum:size"), 2)]),
        rule(20, "ovn_raft_instance:server_info:leaderless_voice",
             [("ovn_raft_instance:server_info:leaderless_voice" + labels(
                 {"namespace": NS, "instance": f"10.0.0.{i}:10476", "db": NB, "cluster_id": CID, "server_id": s}), 1)
              for i, s in ((1, "a1a1"), (2, "b2b2"))]),
    ]

    # 3. The leader dies at 5m: b2b2 leads in term 2 and sees a1a1 fall silent.
    a_age = lambda t: max(0.2, 60.0 * (t - 5))
    members = [Member(*A, VIEW, role="leader", present=gone5),
               Member(*B, VIEW, role="follower", present=gone5), Member(*C, VIEW, present=gone5),
               Member(*B, VIEW, role="leader", leader="b2b2", present=back, term=lambda t: 2, ages={"a1a1": a_age}),
               Member(*C, VIEW, leader="b2b2", present=back, term=lambda t: 2)]
    members[0].scrape_up = lambda t: 1 if t < 5 else 0
    yield "leader killed", members, [
        rule(30, "ovn_raft_cluster:live_members:count", [(cluster("ovn_raft_cluster:live_members:count"), 2)]),
        rule(30, "ovn_raft_cluster_member:silent:named_by",
             [(cluster("ovn_raft_cluster_member:silent:named_by", {"member_id": "a1a1"}), 2)]),
        # Its exporter went down with it: OVNRaftExporterDown explains the silence (one page).
        rule(30, "ovn_raft_cluster_member:exporter_down:bool",
             [(cluster("ovn_raft_cluster_member:exporter_down:bool", {"member_id": "a1a1"}), 1)]),
        # b2b2 leads now: the leaders count is the followers' word too.
        rule(30, "ovn_raft_cluster:leaders:count", [(cluster("ovn_raft_cluster:leaders:count"), 1)]),
    ] + alerts_at(30, {
        "OVNRaftQuorumAtRisk": [(CLUSTER, 0)],
        "OVNRaftExporterDown": [({"namespace": NS, "instance": "10.0.0.1:10476", "job": "ovn-raft-exporter"}, 0)],
    })

    # 4. Two members die at 5m: the survivor is a disconnected candidate that keeps starting
    # elections. It answers, so it is alive: 1 of the quorum of 2. Its term stays, as on OVS
    # 3.3+ (pre-vote: an election no peer answers never raises it).
    campaigner = {"namespace": NS, "instance": "10.0.0.1:10476", "job": "ovn-raft-exporter", "db": NB,
                  "server_id": "a1a1", "address": "tcp:10.0.0.1:6643"}
    members = [Member(*A, VIEW, role="leader", present=gone5), Member(*B, VIEW, present=gone5),
               Member(*C, VIEW, present=gone5),
               Member(*A, VIEW, role="candidate", leader=None, connected=0, present=back,
                      status="disconnected")]
    yield "two members killed", members, [
        rule(30, "ovn_raft_cluster:live_members:count", [(cluster("ovn_raft_cluster:live_members:count"), 1)]),
        rule(30, "ovn_raft_cluster:failure_tolerance:count", [(cluster("ovn_raft_cluster:failure_tolerance:count"), -1)]),
    ] + alerts_at(30, {
        "OVNRaftQuorumLost": [(CLUSTER, -1, [1, 2])],
        "OVNRaftNoLeader": [(CLUSTER, 0)],
        "OVNRaftMemberNotReporting": [(dict(CLUSTER, member_id="b2b2"), 1), (dict(CLUSTER, member_id="c3c3"), 1)],
        "OVNRaftMemberDisconnected": [({"namespace": NS, "instance": "10.0.0.1:10476", "job": "ovn-raft-exporter",
                                        "db": NB, "status": "disconnected"}, 1)],
        # It keeps starting elections, but no leader is elected: a campaign, not frequent
        # elections.
        "OVNRaftMemberCampaigning": [(campaigner, 0)],
    })

    # 5. Member 2's exporter stops at 5m; its database is fine and the leader still hears it.
    members = healthy(b={"present": gone5, "alive": lambda t: True, "scrape_up": lambda t: 1 if t < 5 else 0})
    yield "exporter down, database fine", members, [
        rule(30, "ovn_raft_cluster:live_members:count", [(cluster("ovn_raft_cluster:live_members:count"), 3)]),
        rule(30, "ovn_raft_instance:server_info:last",
             [("ovn_raft_instance:server_info:last" + labels(
                 {"namespace": NS, "instance": f"10.0.0.{i}:10476", "db": NB, "cluster_id": CID, "server_id": s,
                  "host": f"10.0.0.{i}"}), 1) for i, s in ((1, "a1a1"), (2, "b2b2"), (3, "c3c3"))]),
    ] + alerts_at(30, {
        "OVNRaftExporterDown": [({"namespace": NS, "instance": "10.0.0.2:10476", "job": "ovn-raft-exporter"}, 0)],
    })

    # 5b. The leader's exporter stops at 5m for over an hour; the database is fine. Nobody
    # reports the leader's view, but both followers hold connections with it: alive, and still
    # the leader its followers name. Its exporter being down is the one page.
    members = healthy(a={"present": gone5, "alive": lambda t: True, "scrape_up": lambda t: 1 if t < 5 else 0})
    yield "the leader's exporter down for an hour", members, [
        rule(70, "ovn_raft_cluster:live_members:count", [(cluster("ovn_raft_cluster:live_members:count"), 3)]),
        rule(70, "ovn_raft_cluster:failure_tolerance:count", [(cluster("ovn_raft_cluster:failure_tolerance:count"), 1)]),
        rule(70, "ovn_raft_cluster:leaders:count", [(cluster("ovn_raft_cluster:leaders:count"), 1)]),
        rule(70, "ovn_raft_cluster:leader_claims:count", [(cluster("ovn_raft_cluster:leader_claims:count"), 0)]),
        rule(70, "ovn_raft_cluster:quorum:size", [(cluster("ovn_raft_cluster:quorum:size"), 2)]),
    ] + [a for t in (8, 25, 40, 70) for a in alerts_at(t, {} if t < 25 else {
        "OVNRaftExporterDown": [({"namespace": NS, "instance": "10.0.0.1:10476", "job": "ovn-raft-exporter"}, 0)],
    })]

    # 6. Member 3 re-created at 5m as a single-member cluster of its own.
    members = [Member(*A, VIEW, role="leader", ages={"c3c3": a_age}), Member(*B, VIEW),
               Member(*C, VIEW, present=gone5),
               Member("e5e5", "10.0.0.3", [("e5e5", "10.0.0.3")], role="leader", leader="e5e5", cid="f9f9",
                      instance="10.0.0.3:10476", present=back)]
    yield "cluster ID split", members, alerts_at(30, {
        "OVNRaftClusterIDSplit": [({"namespace": NS, "db": NB}, 2)],
        "OVNRaftMemberNotReporting": [(dict(CLUSTER, member_id="c3c3"), 2)],
        # The split-off member's own cluster of one pages through OVNRaftClusterIDSplit alone.
        "OVNRaftQuorumAtRisk": [(CLUSTER, 0)],
    })

    # 7. Rolling restart: each member away 2 minutes, 10 minutes apart; leadership moves.
    away = lambda start: (lambda t: not (start <= t < start + 2))
    members = [Member(*A, VIEW, role="leader", present=lambda t: t < 5),
               Member(*A, VIEW, leader="b2b2", present=lambda t: t >= 7),
               Member(*B, VIEW, present=lambda t: t < 5),
               Member(*B, VIEW, role="leader", leader="b2b2", present=lambda t: 5 <= t < 15 or t >= 17,
                      term=lambda t: 2, ages={"a1a1": lambda t: 60.0 * (t - 4) if 5 <= t < 7 else 0.2,
                                              "c3c3": lambda t: 60.0 * (t - 24) if 25 <= t < 27 else 0.2}),
               Member(*C, VIEW, leader="b2b2", present=lambda t: t >= 5 and away(25)(t), term=lambda t: 2)]
    for m in members:
        m.scrape_up = lambda t: 1
        m.hosts = ["10.0.0.1", "10.0.0.2", "10.0.0.3"]
    yield "rolling restart fires nothing", members, alerts_at(20, {}) + alerts_at(35, {})

    # 8. One failed scrape of every member at 20m.
    yield "failed scrape fires nothing", healthy(a={"present": lambda t: t != 20}, b={"present": lambda t: t != 20},
                                                 c={"present": lambda t: t != 20}), alerts_at(21, {}) + alerts_at(30, {})

    # 9. A lagging follower and a growing commit backlog on the leader.
    yield "lag and backlog", healthy(a={"match_lag": {"c3c3": 2000}, "uncommitted": lambda t: 200 + 10 * min(t, 22)}), [
        rule(20, "ovn_raft_cluster_member:replication_lag:entries{member_id=\"c3c3\"}",
             [(cluster("ovn_raft_cluster_member:replication_lag:entries", {"member_id": "c3c3"}), 2000)]),
    ] + alerts_at(25, {
        "OVNRaftFollowerLagging": [(dict(CLUSTER, member_id="c3c3"), 2000)],
        "OVNRaftCommitBacklogGrowing": [(CLUSTER, 420)],
    })

    # 10. Three different views: no majority; two leaders at once.
    members = [Member(*A, VIEW, role="leader", leader="a1a1"),
               Member(*B, VIEW + [("x9x9", "10.0.0.9")], role="leader", leader="b2b2", ages={"x9x9": old_age}),
               Member(*C, [A, C], leader="a1a1")]
    yield "no majority view, two leaders", members, alerts_at(20, {
        "OVNRaftMembershipViewsDisagree": [(CLUSTER, 3)],
        "OVNRaftNoMajorityView": [(CLUSTER, 0)],
        "OVNRaftMultipleLeaders": [(CLUSTER, 2)],
        "OVNRaftLeaderDisagreement": [(CLUSTER, 2)],
        # b2b2 leads a view of 4 (quorum 3) in which x9x9 is dead: 3 alive.
        "OVNRaftQuorumAtRisk": [(CLUSTER, 0)],
        # Silent, unheard by its leader, and the cluster is larger than expected: a stale
        # suspect, not "not reporting".
        "OVNRaftStaleMember": [(dict(CLUSTER, member_id="x9x9", host="10.0.0.9", address="tcp:10.0.0.9:6643"), 1)],
        "OVNRaftTooManyMembers": [(CLUSTER, 1)],
    })

    # 11. Fewer members than kube-state-metrics' replicas say (no --cluster.expected-members).
    members = healthy(a={"expected": 0}, b={"expected": 0}, c={"expected": 0})
    ksm = [{"series": "kube_deployment_spec_replicas" + labels({"namespace": NS, "deployment": "ovn-central"}),
            "values": f"5+0x{MINUTES}"}]
    yield "too few members per kube-state-metrics", members, [
        rule(20, "ovn_raft_cluster:expected_members:count", [(cluster("ovn_raft_cluster:expected_members:count"), 5)]),
    ] + alerts_at(20, {"OVNRaftTooFewMembers": [(CLUSTER, -2)]}), ksm

    # 12. A member stuck joining; a member whose status lines the parser does not know.
    members = healthy(c={"warnings": 2}) + [
        Member("d4d4", "10.0.0.4", [], leader=None, status="joining", cid="", connected=0)]
    yield "stuck joining, unknown lines", members, alerts_at(70, {
        "OVNRaftMemberStuckJoining": [({"namespace": NS, "instance": "10.0.0.4:10476", "job": "ovn-raft-exporter",
                                        "db": NB, "status": "joining"}, 1)],
        "OVNRaftStatusNotUnderstood": [({"namespace": NS, "instance": "10.0.0.3:10476", "job": "ovn-raft-exporter",
                                         "db": NB}, 2)],
    })

    # 13. Leaders change at 10, 12, 14, 16 and 18m, then hold: frequent elections while the
    # changes fall in the window, quiet once they leave it.
    term = lambda t: 1 + sum(1 for c in (10, 12, 14, 16, 18) if t >= c)
    members = healthy(a={"term": term}, b={"term": term}, c={"term": term})
    yield "frequent leader changes, then stable", members, alerts_at(9, {}) + alerts_at(25, {
        "OVNRaftFrequentElections": [(CLUSTER, 4)],
    }) + alerts_at(40, {})

    # 14. Member 3 is cut off by a firewall from 5 to 25m: it campaigns alone (its term climbs,
    # the majority keeps its leader); on healing its higher term forces one election. The
    # leader's TCP connection to it still looks established: the leader's last-message ages
    # decide.
    cut = lambda t: 5 <= t < 25
    majority_term = lambda t: 1 if t < 25 else 22
    cut_member = {"namespace": NS, "instance": "10.0.0.3:10476", "job": "ovn-raft-exporter", "db": NB}
    members = [Member(*A, VIEW, role="leader", term=majority_term, links={"c3c3": lambda t: 1},
                      ages={"c3c3": lambda t: 60.0 * (t - 5) + 1 if cut(t) else 0.2}),
               Member(*B, VIEW, term=majority_term),
               Member(*C, VIEW, present=lambda t: t < 5),
               Member(*C, VIEW, role="candidate", leader=None, connected=0, status="disconnected",
                      present=cut, reachable=lambda t: not cut(t), term=lambda t: 1 + (t - 4)),
               Member(*C, VIEW, present=lambda t: t >= 25, term=majority_term)]
    yield "member cut off, then healed", members, [
        rule(20, "ovn_raft_cluster:live_members:count", [(cluster("ovn_raft_cluster:live_members:count"), 2)]),
        rule(20, "ovn_raft_cluster:leader_term:max", [(cluster("ovn_raft_cluster:leader_term:max"), 1)]),
        rule(30, "ovn_raft_cluster:live_members:count", [(cluster("ovn_raft_cluster:live_members:count"), 3)]),
    ] + alerts_at(20, {
        "OVNRaftMemberCampaigning": [(dict(cut_member, server_id="c3c3", address="tcp:10.0.0.3:6643"), 0)],
        "OVNRaftMemberDisconnected": [(dict(cut_member, status="disconnected"), 1)],
        "OVNRaftQuorumAtRisk": [(CLUSTER, 0)],
    }) + alerts_at(30, {})

    # 15. A node is replaced: 10.0.0.3's node is gone at 5m (its member c3c3 stays in the
    # views, silent), a new member d4d4 joins from the new node 10.0.0.4 at 8m. Expected hosts
    # (--cluster.expected-hosts, which implies 3 members): 10.0.0.1, 10.0.0.2, 10.0.0.4.
    D = ("d4d4", "10.0.0.4")
    hosts = ["10.0.0.1", "10.0.0.2", "10.0.0.4"]
    view = lambda t: VIEW + [D] if t >= 8 else VIEW
    joined = lambda t: t >= 8
    members = [Member(*A, VIEW, role="leader", hosts=hosts, present=lambda t: t < 8,
                      ages={"c3c3": lambda t: max(0.2, 60.0 * (t - 5))}),
               Member(*A, VIEW + [D], role="leader", hosts=hosts, present=joined,
                      ages={"c3c3": lambda t: 60.0 * (t - 5)}),
               Member(*B, VIEW, hosts=hosts, present=lambda t: t < 8), Member(*B, VIEW + [D], hosts=hosts, present=joined),
               Member(*C, VIEW, hosts=hosts, present=gone5),
               Member(*D, VIEW + [D], hosts=hosts, instance="10.0.0.4:10476", present=joined)]
    unexpected = dict(CLUSTER, member_id="c3c3", host="10.0.0.3", address="tcp:10.0.0.3:6643")
    yield "node replaced", members, [
        rule(30, "ovn_raft_db_host:expected:bool",
             [("ovn_raft_db_host:expected:bool" + labels({"namespace": NS, "db": NB, "host": h}), 1) for h in hosts]),
        rule(30, "ovn_raft_cluster_member:unexpected_host:named_by",
             [("ovn_raft_cluster_member:unexpected_host:named_by" + labels(unexpected), 3)]),
        rule(30, "ovn_raft_db_host:missing_member:bool", []),
        rule(30, "ovn_raft_cluster_member:suspect:score",
             [(cluster("ovn_raft_cluster_member:suspect:score", {"member_id": m}), v)
              for m, v in (("a1a1", 7), ("b2b2", 7), ("c3c3", 1107), ("d4d4", 7))]),
        rule(30, "ovn_raft_cluster_member:stale_suspect:score",
             [(cluster("ovn_raft_cluster_member:stale_suspect:score", {"member_id": "c3c3"}), 1107)]),
        rule(30, "ovn_raft_cluster_member:stale_suspect:named_by",
             [(cluster("ovn_raft_cluster_member:stale_suspect:named_by",
                       {"member_id": "c3c3", "host": "10.0.0.3", "address": "tcp:10.0.0.3:6643"}), 3)]),
    ] + alerts_at(12, {}) + alerts_at(30, {
        "OVNRaftMemberOnUnexpectedHost": [(unexpected, 3)],
        "OVNRaftStaleMember": [(unexpected, 3)],
        "OVNRaftTooManyMembers": [(CLUSTER, 1)],
        "OVNRaftQuorumAtRisk": [(CLUSTER, 0)],
    })

    # 16. An expected host whose member never joined, the expected hosts from
    # kube-state-metrics (four ovn-central pods, the fourth on 10.0.0.4) and no --expected-*.
    members = healthy(a={"expected": 0}, b={"expected": 0}, c={"expected": 0})
    ksm = [{"series": "kube_pod_info" + labels({"namespace": NS, "pod": f"ovn-central-7d9f-{i}", "host_ip": f"10.0.0.{i}",
                                                "created_by_kind": "ReplicaSet", "created_by_name": "ovn-central-7d9f"}),
            "values": f"1+0x{MINUTES}"} for i in (1, 2, 3, 4)]
    ksm.append({"series": "kube_deployment_spec_replicas" + labels({"namespace": NS, "deployment": "ovn-central"}),
                "values": f"4+0x{MINUTES}"})
    missing_host = {"namespace": NS, "db": NB, "host": "10.0.0.4"}
    yield "expected host never joined (kube-state-metrics)", members, [
        # Only the database that reports gets the kube-state-metrics hosts.
        rule(20, "ovn_raft_db_host:expected:bool",
             [("ovn_raft_db_host:expected:bool" + labels({"namespace": NS, "db": NB, "host": f"10.0.0.{i}"}), 1)
              for i in (1, 2, 3, 4)]),
        rule(20, "ovn_raft_db_host:missing_member:bool", [("ovn_raft_db_host:missing_member:bool" + labels(missing_host), 1)]),
        rule(20, "ovn_raft_cluster:unexpected_hosts:count", [(cluster("ovn_raft_cluster:unexpected_hosts:count"), 0)]),
        rule(20, "ovn_raft_cluster_member:stale_suspect:score", []),
    ] + alerts_at(20, {
        "OVNRaftExpectedHostWithoutMember": [(missing_host, 1)],
        "OVNRaftTooFewMembers": [(CLUSTER, -1)],
    }), ksm

    # 17. Member 3's view differs from the majority's in the three ways: it lacks d4d4, lists
    # x9x9 that nobody else does, and places b2b2 at 10.0.0.9.
    X = ("x9x9", "10.0.0.8")
    majority_view = VIEW + [D]
    odd_view = [A, ("b2b2", "10.0.0.9"), C, X]
    members = [Member(*A, majority_view, role="leader", expected=4), Member(*B, majority_view, expected=4),
               Member(*C, odd_view, expected=4)]
    c3 = dict(CLUSTER, server_id="c3c3")
    yield "a view differs from the majority in three ways", members, [
        rule(20, "ovn_raft_cluster_reporter_member:missing:info",
             [(cluster("ovn_raft_cluster_reporter_member:missing:info",
                       {"server_id": "c3c3", "member_id": "d4d4", "address": "tcp:10.0.0.4:6643", "host": "10.0.0.4"}), 1)]),
        rule(20, "ovn_raft_cluster_reporter_member:extra:info",
             [(cluster("ovn_raft_cluster_reporter_member:extra:info",
                       {"server_id": "c3c3", "member_id": "x9x9", "address": "tcp:10.0.0.8:6643"}), 1)]),
        rule(20, "ovn_raft_cluster_reporter_member:moved:info",
             [(cluster("ovn_raft_cluster_reporter_member:moved:info",
                       {"server_id": "c3c3", "member_id": "b2b2", "address": "tcp:10.0.0.9:6643",
                        "majority_address": "tcp:10.0.0.2:6643"}), 1)]),
        rule(20, "ovn_raft_cluster_reporter:view_differences:count",
             [(cluster("ovn_raft_cluster_reporter:view_differences:count", {"server_id": s}), n)
              for s, n in (("a1a1", 0), ("b2b2", 0), ("c3c3", 3))]),
        rule(20, "ovn_raft_cluster_member:stale_suspect:score",
             [(cluster("ovn_raft_cluster_member:stale_suspect:score", {"member_id": "x9x9"}), 109)]),
    ] + alerts_at(20, {
        "OVNRaftViewDiffersFromMajority": [
            (dict(c3, member_id="d4d4", difference="missing", address="-", majority_address="tcp:10.0.0.4:6643",
                  host="10.0.0.4"), 1),
            (dict(c3, member_id="x9x9", difference="extra", address="tcp:10.0.0.8:6643", majority_address="-"), 1),
            (dict(c3, member_id="b2b2", difference="moved", address="tcp:10.0.0.9:6643",
                  majority_address="tcp:10.0.0.2:6643"), 1)],
        "OVNRaftMembershipViewsDisagree": [(CLUSTER, 2)],
        "OVNRaftMemberNotReporting": [(dict(CLUSTER, member_id="d4d4"), 2)],
        "OVNRaftStaleMember": [(dict(CLUSTER, member_id="x9x9", host="10.0.0.8", address="tcp:10.0.0.8:6643"), 1)],
        "OVNRaftTooManyMembers": [(CLUSTER, 1)],
    })

    # 18. Five members, two of them (d, e) with an old view that lacks a newly added f6f6: each
    # minority reporter's missing member is named (the second through the second slot).
    E, F = ("e5e5", "10.0.0.5"), ("f6f6", "10.0.0.6")
    new_view, old_view = VIEW + [D, E, F], VIEW + [D, E]
    members = [Member(*A, new_view, role="leader", expected=6), Member(*B, new_view, expected=6),
               Member(*C, new_view, expected=6), Member(*D, old_view, expected=6, instance="10.0.0.4:10476"),
               Member(*E, old_view, expected=6, instance="10.0.0.5:10476"),
               Member(*F, new_view, expected=6, instance="10.0.0.6:10476")]
    yield "two minority reporters each lack a member", members, [
        rule(20, "ovn_raft_cluster_reporter_member:missing:info",
             [(cluster("ovn_raft_cluster_reporter_member:missing:info",
                       {"server_id": s, "member_id": "f6f6", "address": "tcp:10.0.0.6:6643", "host": "10.0.0.6"}), 1)
              for s in ("d4d4", "e5e5")]),
    ]


# Each scenario's file: one concern per file, small enough to review.
CONCERN_TITLES = {
    "healthy": "a healthy cluster: every recording rule at its resting value, no alert",
    "stale-members": "fresh restarts and replaced nodes: who is named a stale member, and who never is",
    "quorum": "leaders and quorum: dead members, elections, a member cut off",
    "scrapes": "exporters down and failed scrapes: silence is not death",
    "membership": "membership views, cluster IDs and the expected size and hosts",
    "replication": "replication lag, backlogs, joining and unknown status lines",
}
CONCERNS = {
    "healthy": "healthy",
    "fresh restart leaves a stale ID": "stale-members",
    "fresh restart while its exporter is down names only the old ID": "stale-members",
    "a new ID listed before the leader vouches for it is never named": "stale-members",
    "two dead IDs tied for one excess: neither is named": "stale-members",
    "ranking with an excess of 1": "stale-members",
    "ranking with an excess of 2": "stale-members",
    "a stale ID in one lagging view does not raise the quorum": "stale-members",
    "a stale ID in one lagging view does not raise the quorum without a leader": "stale-members",
    "node replaced": "stale-members",
    "leader killed": "quorum",
    "two members killed": "quorum",
    "no majority view, two leaders": "quorum",
    "frequent leader changes, then stable": "quorum",
    "member cut off, then healed": "quorum",
    "exporter down, database fine": "scrapes",
    "the leader's exporter down for an hour": "scrapes",
    "rolling restart fires nothing": "scrapes",
    "failed scrape fires nothing": "scrapes",
    "cluster ID split": "membership",
    "too few members per kube-state-metrics": "membership",
    "expected host never joined (kube-state-metrics)": "membership",
    "a view differs from the majority in three ways": "membership",
    "two minority reporters each lack a member": "membership",
    "lag and backlog": "replication",
    "stuck joining, unknown lines": "replication",
}


def main():
    root = Path(__file__).resolve().parent
    for a in yaml.safe_load((root.parent / "ovn-raft-alerts.yaml").read_text())["groups"][0]["rules"]:
        SEVERITY[a["alert"]] = a["labels"]["severity"]
        ANNOTATIONS[a["alert"]] = a["annotations"]
    files = {}
    for item in scenarios():
        name, members, checks = item[:3]
        series = input_series(members) + (item[3] if len(item) > 3 else [])
        test = {"name": name, "interval": "1m", "input_series": series,
                "promql_expr_test": [c for c in checks if "expr" in c],
                "alert_rule_test": [c for c in checks if "alertname" in c]}
        files.setdefault(CONCERNS[name], []).append({k: v for k, v in test.items() if v})
    assert set(files) == set(CONCERN_TITLES), set(files) ^ set(CONCERN_TITLES)
    out_dir = root / "scenarios"
    texts = {}
    for concern, tests in files.items():
        doc = {"rule_files": ["../../ovn-raft-rules.yaml", "../../ovn-raft-alerts.yaml"],
               "evaluation_interval": "1m", "tests": tests}
        texts[out_dir / f"{concern}-test.yaml"] = (
            f"# promtool test rules: {CONCERN_TITLES[concern]}\n"
            "# Generated by ../make_tests.py from its scenarios: edit those, then run it.\n"
            + yaml.safe_dump(doc, sort_keys=False, width=4096, default_flow_style=False))
    if "--check" in sys.argv:
        stale = [p.name for p, t in texts.items() if not p.exists() or p.read_text() != t]
        extra = [p.name for p in out_dir.glob("*-test.yaml") if p not in texts]
        sys.exit(f"out of date: {stale + extra}: run make_tests.py" if stale or extra else 0)
    out_dir.mkdir(exist_ok=True)
    for p in out_dir.glob("*-test.yaml"):
        if p not in texts:
            p.unlink()
    for p, t in texts.items():
        p.write_text(t)


if __name__ == "__main__":
    main()
