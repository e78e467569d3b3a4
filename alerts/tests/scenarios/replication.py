"""promtool test rules: replication lag, backlogs, joining and unknown status lines.

Each scenario: the members as their exporters report them, minute by minute (the input), then
the recording-rule values and the exact set of alerts expected at given minutes. Every alert of
ALL_ALERTS not listed in an alerts_at() is expected silent at that minute. ../make_tests.py
turns this into replication-test.yaml at test time.
"""
from scenario_lib import *  # noqa: F401,F403  the vocabulary: Member, rule, alerts_at, ...

CONCERN = "replication"
TITLE = "replication lag, backlogs, joining and unknown status lines"


def scenarios():
    # A lagging follower and a growing commit backlog on the leader.
    yield "lag and backlog", healthy(a={"match_lag": {"c3c3": 2000}, "uncommitted": lambda t: 200 + 10 * min(t, 22)}), [
        rule(20, "ovn_raft_cluster_member:replication_lag:entries{member_id=\"c3c3\"}",
             [(cluster("ovn_raft_cluster_member:replication_lag:entries", {"member_id": "c3c3"}), 2000)]),
    ] + alerts_at(25, {
        "OVNRaftFollowerLagging": [(dict(CLUSTER, member_id="c3c3"), 2000)],
        "OVNRaftCommitBacklogGrowing": [(CLUSTER, 420)],
    })

    # A member stuck joining; a member whose status lines the parser does not know.
    members = healthy(c={"warnings": 2}) + [
        Member("d4d4", "10.0.0.4", [], leader=None, status="joining", cid="", connected=0)]
    yield "stuck joining, unknown lines", members, alerts_at(70, {
        "OVNRaftMemberStuckJoining": [({"namespace": NS, "instance": "10.0.0.4:10476", "job": "ovn-raft-exporter",
                                        "db": NB, "status": "joining"}, 1)],
        "OVNRaftStatusNotUnderstood": [({"namespace": NS, "instance": "10.0.0.3:10476", "job": "ovn-raft-exporter",
                                         "db": NB}, 2)],
    })
