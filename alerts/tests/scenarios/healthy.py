"""promtool test rules: a healthy cluster: every recording rule at its resting value, no alert.

Each scenario: the members as their exporters report them, minute by minute (the input), then
the recording-rule values and the exact set of alerts expected at given minutes. Every alert of
ALL_ALERTS not listed in an alerts_at() is expected silent at that minute. ../make_tests.py
turns this into healthy-test.yaml at test time.
"""
from scenario_lib import *  # noqa: F401,F403  the vocabulary: Member, rule, alerts_at, ...

CONCERN = "healthy"
TITLE = "a healthy cluster: every recording rule at its resting value, no alert"


def scenarios():
    # Healthy: every recording rule at its resting value, no alert.
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
