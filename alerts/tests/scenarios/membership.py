"""promtool test rules: membership views, cluster IDs and the expected size and hosts.

Each scenario: the members as their exporters report them, minute by minute (the input), then
the recording-rule values and the exact set of alerts expected at given minutes. Every alert of
ALL_ALERTS not listed in an alerts_at() is expected silent at that minute. ../make_tests.py
turns this into membership-test.yaml at test time.
"""
from scenario_lib import *  # noqa: F401,F403  the vocabulary: Member, rule, alerts_at, ...

CONCERN = "membership"
TITLE = "membership views, cluster IDs and the expected size and hosts"


def scenarios():
    # Member 3 re-created at 5m as a single-member cluster of its own.
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

    # Fewer members than kube-state-metrics' replicas say (no --cluster.expected-members).
    members = healthy(a={"expected": 0}, b={"expected": 0}, c={"expected": 0})
    ksm = [{"series": "kube_deployment_spec_replicas" + labels({"namespace": NS, "deployment": "ovn-central"}),
            "values": f"5+0x{MINUTES}"}]
    yield "too few members per kube-state-metrics", members, [
        rule(20, "ovn_raft_cluster:expected_members:count", [(cluster("ovn_raft_cluster:expected_members:count"), 5)]),
    ] + alerts_at(20, {"OVNRaftTooFewMembers": [(CLUSTER, -2)]}), ksm

    # Member 3 has left (the others' views name two members) and no expected size is known
    # anywhere: no --cluster.expected-members or --cluster.expected-hosts, no kube-state-metrics
    # (a host as packaged). Too few members cannot fire; the deployment says its size checks are off.
    two = [A, B]
    members = [Member(*A, two, role="leader", expected=0), Member(*B, two, expected=0)]
    yield "no expected size anywhere: the size checks are off", members, [
        rule(20, "ovn_raft_cluster:expected_members:count", []),
        rule(20, "ovn_raft_cluster:members_vs_expected:diff", []),
    ] + alerts_at(10, {"OVNRaftQuorumAtRisk": [(CLUSTER, 0)]}) + alerts_at(20, {
        "OVNRaftExpectedSizeUnknown": [({"namespace": NS}, 1)],
        "OVNRaftQuorumAtRisk": [(CLUSTER, 0)],
    })

    # The same, the size given to one exporter alone (the rules take the largest any gives):
    # too few members fires, and the size checks are on.
    members = [Member(*A, two, role="leader", expected=3), Member(*B, two, expected=0)]
    yield "the expected size on one exporter: too few members", members, [
        rule(20, "ovn_raft_cluster:members_vs_expected:diff", [(cluster("ovn_raft_cluster:members_vs_expected:diff"), -1)]),
    ] + alerts_at(20, {"OVNRaftTooFewMembers": [(CLUSTER, -1)], "OVNRaftQuorumAtRisk": [(CLUSTER, 0)]})

    # Only kube-state-metrics gives the size, and it is scraped late (from 10m): the size
    # checks are off until then, on after, and the signal never fires (its for: is not reached).
    ksm = [{"series": "kube_deployment_spec_replicas" + labels({"namespace": NS, "deployment": "ovn-central"}),
            "values": f"_x10 3+0x{MINUTES - 10}"}]
    members = [Member(*A, two, role="leader", expected=0), Member(*B, two, expected=0)]
    yield "kube-state-metrics gives the size after 10m", members, [
        rule(5, "ovn_raft_cluster:expected_members:count", []),
        rule(20, "ovn_raft_cluster:expected_members:count", [(cluster("ovn_raft_cluster:expected_members:count"), 3)]),
    ] + alerts_at(12, {"OVNRaftQuorumAtRisk": [(CLUSTER, 0)]}) + alerts_at(40, {
        "OVNRaftTooFewMembers": [(CLUSTER, -1)], "OVNRaftQuorumAtRisk": [(CLUSTER, 0)]}), ksm

    # An expected host whose member never joined, the expected hosts from
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

    # Member 3's view differs from the majority's in the three ways: it lacks d4d4, lists
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

    # Five members, two of them (d, e) with an old view that lacks a newly added f6f6: each
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
