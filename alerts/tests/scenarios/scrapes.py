"""promtool test rules: exporters down and failed scrapes: silence is not death.

Each scenario: the members as their exporters report them, minute by minute (the input), then
the recording-rule values and the exact set of alerts expected at given minutes. Every alert of
ALL_ALERTS not listed in an alerts_at() is expected silent at that minute. ../make_tests.py
turns this into scrapes-test.yaml at test time.
"""
from scenario_lib import *  # noqa: F401,F403  the vocabulary: Member, rule, alerts_at, ...

CONCERN = "scrapes"
TITLE = "exporters down and failed scrapes: silence is not death"


def scenarios():
    # Member 2's exporter stops at 5m; its database is fine and the leader still hears it.
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

    # The leader's exporter stops at 5m for over an hour; the database is fine. Nobody
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

    # Rolling restart: each member away 2 minutes, 10 minutes apart; leadership moves.
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

    # One failed scrape of every member at 20m.
    yield "failed scrape fires nothing", healthy(a={"present": lambda t: t != 20}, b={"present": lambda t: t != 20},
                                                 c={"present": lambda t: t != 20}), alerts_at(21, {}) + alerts_at(30, {})
