"""promtool test rules: leaders and quorum: dead members, elections, a member cut off.

Each scenario: the members as their exporters report them, minute by minute (the input), then
the recording-rule values and the exact set of alerts expected at given minutes. Every alert of
ALL_ALERTS not listed in an alerts_at() is expected silent at that minute. ../make_tests.py
turns this into quorum-test.yaml at test time.
"""
from scenario_lib import *  # noqa: F401,F403  the vocabulary: Member, rule, alerts_at, ...

CONCERN = "quorum"
TITLE = "leaders and quorum: dead members, elections, a member cut off"


def scenarios():
    # The leader dies at 5m: b2b2 leads in term 2 and sees a1a1 fall silent.
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

    # Two members die at 5m: the survivor is a disconnected candidate that keeps starting
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

    # Three different views: no majority; two leaders at once.
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

    # Leaders change at 10, 12, 14, 16 and 18m, then hold: frequent elections while the
    # changes fall in the window, quiet once they leave it.
    term = lambda t: 1 + sum(1 for c in (10, 12, 14, 16, 18) if t >= c)
    members = healthy(a={"term": term}, b={"term": term}, c={"term": term})
    yield "frequent leader changes, then stable", members, alerts_at(9, {}) + alerts_at(25, {
        "OVNRaftFrequentElections": [(CLUSTER, 4)],
    }) + alerts_at(40, {})

    # Member 3 is cut off by a firewall from 5 to 25m: it campaigns alone (its term climbs,
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
