"""promtool test rules: fresh restarts and replaced nodes: who is named a stale member, and who never is.

Each scenario: the members as their exporters report them, minute by minute (the input), then
the recording-rule values and the exact set of alerts expected at given minutes. Every alert of
ALL_ALERTS not listed in an alerts_at() is expected silent at that minute. ../make_tests.py
turns this into stale-members-test.yaml at test time.
"""
from scenario_lib import *  # noqa: F401,F403  the vocabulary: Member, rule, alerts_at, ...

CONCERN = "stale-members"
TITLE = "fresh restarts and replaced nodes: who is named a stale member, and who never is"


def scenarios():
    # Member 3 restarted with a fresh database: new ID d4d4 at 10.0.0.3, old c3c3 stays.
    stale_view = VIEW + [("d4d4", "10.0.0.3")]
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

    # The same on an interconnection database: the kick command names its own socket.
    ic = dict(CLUSTER, db="OVN_IC_Northbound")
    members = [Member(*A, stale_view, role="leader", ages={"c3c3": old_age}, db=ic["db"]),
               Member(*B, stale_view, db=ic["db"]),
               Member("d4d4", "10.0.0.3", stale_view, instance="10.0.0.3:10476", db=ic["db"])]
    yield "an interconnection database's stale ID is kicked through its own socket", members, alerts_at(20, {
        "OVNRaftStaleMember": [(dict(ic, member_id="c3c3", host="10.0.0.3", address="tcp:10.0.0.3:6643"), 3)],
        "OVNRaftHostClaimedByMultipleIDs": [(dict(ic, host="10.0.0.3"), 2)],
        "OVNRaftTooManyMembers": [(ic, 1)],
        "OVNRaftQuorumAtRisk": [(ic, 0)],
    })

    # Member 3 restarted with a fresh database at 5m while its exporter is down
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

    # The ordinary fresh restart, with a race: at 5m the follower lists the new d4d4
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

    # Tie: member 3 was restarted fresh, then its node died. Neither c3c3 nor d4d4 is
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

    # The top candidate beats the next: excess one, c3c3 (host shared with the live e5e5)
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

    # One follower's view lags with a stale ID the leader and the majority dropped: the
    # quorum is the leader's view's (2 of 3), not the lagging view's (3 of 4): no risk.
    members = [Member(*A, VIEW, role="leader"), Member(*B, VIEW), Member(*C, VIEW + [X9])]
    yield "a stale ID in one lagging view does not raise the quorum", members, [
        rule(20, "ovn_raft_cluster:quorum:size", [(cluster("ovn_raft_cluster:quorum:size"), 2)]),
        rule(20, "ovn_raft_cluster:failure_tolerance:count", [(cluster("ovn_raft_cluster:failure_tolerance:count"), 1)]),
    ]

    # The same lagging view while no leader reports (mid-election): the quorum comes from
    # the voices, and the lagging reporter is a minority, so it is the majority view's (2), not 3.
    members = [Member(*A, VIEW, leader=None), Member(*B, VIEW, leader=None), Member(*C, VIEW + [X9], leader=None)]
    yield "a stale ID in one lagging view does not raise the quorum without a leader", members, [
        rule(20, "ovn_raft_cluster:quorum:size", [(cluster("ovn_raft_cluster:quorum:size"), 2)]),
        rule(20, "ovn_raft_instance:server_info:leaderless_voice",
             [("ovn_raft_instance:server_info:leaderless_voice" + labels(
                 {"namespace": NS, "instance": f"10.0.0.{i}:10476", "db": NB, "cluster_id": CID, "server_id": s}), 1)
              for i, s in ((1, "a1a1"), (2, "b2b2"))]),
    ]

    # A node is replaced: 10.0.0.3's node is gone at 5m (its member c3c3 stays in the
    # views, silent), a new member d4d4 joins from the new node 10.0.0.4 at 8m. Expected hosts
    # (--cluster.expected-hosts, which implies 3 members): 10.0.0.1, 10.0.0.2, 10.0.0.4.
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
