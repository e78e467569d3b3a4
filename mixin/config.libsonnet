// Settings of the OVN Raft mixin. Override in your own jsonnet:
//   (import 'mixin.libsonnet') + { _config+:: { deploymentLabels: ['cluster', 'namespace'] } }
// A duration of one unit ('15m', '6h') in seconds.
local durationSeconds(d) =
  local units = { s: 1, m: 60, h: 3600, d: 86400 };
  std.parseInt(std.substr(d, 0, std.length(d) - 1)) * units[d[std.length(d) - 1]];
// The range a selector reads for a window of one unit: the window and one second more ('15m' reads
// [15m1s]). Prometheus 2 keeps a sample that falls exactly on a range's start, Prometheus 3 leaves
// it out, and one falls exactly there whenever the series is written on the grid of the rule
// that reads it (a record read by its own group, a test's evaluations): the extra second puts
// that sample inside on both, and at an interval of whole seconds longer than one, none falls
// on the new start. Every release then sees the same samples: those of the window, ends included.
local rangeOf(d) =
  if d[std.length(d) - 1] == 's' then '%ds' % (durationSeconds(d) + 1) else d + '1s';
{
  _config+:: {
    // Target labels that identify one deployment (one set of ovn-central pods). Add e.g.
    // 'cluster' when one Prometheus watches several Kubernetes clusters.
    deploymentLabels: ['namespace'],
    // Labels that identify one exporter's series of one database within a deployment, to join
    // per-member gauges with ovn_raft_server_info (the joins add deploymentLabels: two
    // Kubernetes clusters may reuse the same pod addresses).
    memberLabels: ['instance', 'db'],
    // Selects the exporters' series in every rule and alert over them (their scrape jobs).
    selector: 'job=~".*ovn-raft.*"',
    // The scrape jobs whose `up` OVNRaftExporterDown watches.
    exporterSelector: $._config.selector,
    // OVNRaftExporterDown: an exporter that cannot be scraped for this long. Shorter gaps (an
    // exporter restarted, a crash-looping sidecar between its restarts, a failed scrape) are
    // bridged by the alerts about the member behind it: OVNRaftDatabaseUnreadable reads the
    // exporter's last word within this window, and OVNRaftMemberNotReporting leaves a member to
    // OVNRaftExporterDown only once its exporter has been down for all of it, so that their
    // pending time runs on through the exporter's restarts.
    exporterDownFor: '5m',
    // Expected members when --cluster.expected-members is not set: kube-state-metrics' replicas of
    // Kube-OVN's ovn-central Deployment or ovn-kubernetes' ovnkube-db.
    expectedReplicasSelector:
      'kube_deployment_spec_replicas{deployment=~"ovn-central|ovnkube-db"}\n'
      + '              or kube_statefulset_replicas{statefulset=~"ovn-central|ovnkube-db"}',
    // OVNRaftFrequentElections: this many leader changes within the window.
    leaderChangesThreshold: 3,
    leaderChangesWindow: '15m',
    // OVNRaftFrequentLeadershipTransfers: this many leadership transfers within the window (a
    // leader hands over leadership before it writes a snapshot, and when it shuts down or
    // leaves). A leader transfers for a snapshot only when its own is due, and ovsdb-server
    // schedules a member's next snapshot 10 to 20 minutes after its last (ovsdb/storage.c): a
    // busy database's snapshot transfers come every half hour or more (a busy Kube-OVN NB: every
    // 45-50 minutes), one per member when all members fall due together, and a rolling restart
    // transfers at most once per member. More in an hour than one round of a 3-member
    // cluster's snapshots comes faster than snapshots account for: a burst (a restart loop, a
    // leader that keeps leaving) or transfers as often as the snapshot floor, which the
    // clients of the leader pay for.
    leadershipTransfersThreshold: 4,
    leadershipTransfersWindow: '1h',
    leadershipTransfersFor: '5m',
    // OVNRaftMultipleLeaders: the leader claims read over this window must all count more
    // than one. Across a clean leadership transfer, the old leader's exporter may be read
    // before it stepped down and the new one's after it won, in one scrape round: one
    // evaluation of two claims. A window of more than one evaluation (up to a minute)
    // outlasts it; the alert's `for` is shortened by as much, so a real split pages as soon.
    multipleLeadersWindow: '1m',
    multipleLeadersFor: '1m',
    // Expected hosts without --cluster.expected-hosts: the host IPs of the database pods, from
    // kube-state-metrics (they use host networking: pod IP = node IP). '' disables it.
    expectedHostsSelector:
      'kube_pod_info{created_by_kind=~"ReplicaSet|StatefulSet", created_by_name=~"ovn-central-.+|ovnkube-db"}',
    // The databases those hosts apply to: PromQL cannot pair every host with every database
    // by itself. Add OVN_IC_Northbound/OVN_IC_Southbound for OVN-IC.
    expectedHostsDatabases: ['OVN_Northbound', 'OVN_Southbound'],
    // Minority reporters per cluster whose missing members are named one by one (clusters of
    // up to 2n+1 members); more still show in the counts.
    minoritySlots: 3,
    followerLagEntries: 1000,
    // OVNRaftMemberSlow: a follower whose median lag behind the leader's log over
    // slowMemberWindow is at least slowMemberLagEntries and more than slowMemberPeerFactor times
    // its fastest peer's, for slowMemberFor. A healthy follower acknowledges an entry within
    // milliseconds, so that at a moderate write rate most reads find it caught up; one that
    // takes hundreds is found behind at most reads. The median passes over the short lag of a
    // restart or an election; the comparison with the peers passes over a write load heavy
    // enough that every follower trails alike.
    slowMemberWindow: '1m',
    slowMemberLagEntries: 1,
    slowMemberPeerFactor: 3,
    slowMemberFor: '1m',
    // OVNRaftMemberUnheard: how long a member that calls itself a cluster member goes unheard
    // by the leader (or stuck behind its log) before it pages: past an election and a restarted
    // member's catching up.
    memberUnheardFor: '1m',
    // OVNRaftServerStalled: a member's ovsdb-server answered its exporter at least this fraction
    // of its election timer late (a lower bound of the stall: the request may come mid-way), or
    // its main loop took a second or longer this many times, within stallWindow. Held for
    // stallFor, a window that still shows the stall when the elections it causes are counted.
    stallElectionTimerFraction: 0.5,
    stallLongPollIntervals: 3,
    stallWindow: '5m',
    stallFor: '1m',
    // A member whose ovsdb-server (re)started after the leader last heard from it, less than
    // this many seconds ago as its exporter saw it, is rejoining, not unheard (a large database
    // takes its load and catch-up to be heard again). Past it, or when the silence began after
    // the start, it is named.
    memberRejoinSeconds: 120,
    // OVNRaftMixedReleases: members on different Open vSwitch releases for longer than a
    // rolling upgrade of the ovn-central members takes (minutes to one maintenance window).
    mixedReleasesFor: '12h',
    backlogEntries: 100,
    // OVNRaftReleaseWithKnownRaftDefects: Open vSwitch releases without a fix for the Raft
    // defects of docs/ovs-raft-defects.md, by release series, with the first release that
    // fixes them all (versions: an RE2 regex on the ovsdb-server version; anything after the
    // version number, such as a distribution's suffix, is ignored). Distributions backport
    // fixes without changing the version, so the alert is info only: silence it per version.
    raftDefectReleases: [
      { versions: '2\\.[0-9]+\\.[0-9]+|3\\.[0-2]\\.[0-9]+', fixed_in: 'none in its series (3.3.9 or later)' },
      { versions: '3\\.3\\.[0-8]', fixed_in: '3.3.9' },
      { versions: '3\\.4\\.[0-5]', fixed_in: '3.4.6' },
      { versions: '3\\.5\\.[0-3]', fixed_in: '3.5.4' },
      { versions: '3\\.6\\.[0-2]', fixed_in: '3.6.3' },
      { versions: '3\\.7\\.0', fixed_in: '3.7.1' },
    ],
    raftDefectReleasesFor: '1h',
    // The filesystem holding a database file (--ovsdb.database NAME=CTL,SOCK,FILE), in the
    // style of node-mixin's filesystem alerts: OVNRaftDatabaseFilesystemFillingUp when less than
    // filesystemFillingUpPercent is free and the trend over filesystemPredictWindow empties it
    // within a day; OVNRaftDatabaseFilesystemAlmostFull below filesystemAlmostFullPercent.
    filesystemFillingUpPercent: 40,
    filesystemPredictWindow: '6h',
    filesystemFillingUpFor: '1h',
    filesystemAlmostFullPercent: 5,
    filesystemAlmostFullFor: '5m',
    // OVNRaftLogNotCompacted: ovsdb-server compacts a member's log into a snapshot at the
    // latest 24 hours after its last snapshot (or its start) once the log holds any entry,
    // sooner when the log file has grown past 10 MiB and doubled (ovsdb/storage.c), retrying
    // every 1-2 minutes; a leader first hands over leadership (ovsdb/raft.c). Past 24 h and
    // an hour of slack, it has stopped compacting.
    logCompactionOverdueSeconds: 25 * 3600,
    // Databases without Raft (ovn_raft_database_model_info, model standalone or relay).
    // OVNRaftRelayDisconnected, OVNRaftAllRelaysDisconnected: a relay out of contact with its
    // relay source (_Server's connected) for this long. ovsdb-server already reports a relay
    // connected for 30 s while it reconnects (RELAY_MAX_RECONNECTION_MS), and a relay that
    // reconnects re-syncs the source's database before it counts as connected again: a source
    // member's restart and a large database's full re-sync stay under it.
    relayDisconnectedFor: '5m',
    // OVNRaftDatabaseNoLongerClustered: an exporter target's database that reported itself
    // clustered within this window and now reports another model (a deployment rebuilt
    // standalone); the alert clears a window after the last clustered reading.
    noLongerClusteredWindow: '1h',
    noLongerClusteredFor: '5m',
    // OVNRaftClusterRecreated: the highest applied index (_Server's index) of a deployment's
    // database went back by more than recreatedIndexEntries, within recreatedClusterWindow of
    // the higher one: under a new cluster ID (the old one gone: the database was rebuilt) or the
    // same (restored from an older copy). Clients keep the highest index they have read and
    // refuse a server below it ("stale data") until reset or until the index passes it. The
    // alert clears when the index passes the old one, or a window after the old one was read.
    recreatedClusterWindow: '1h',
    recreatedClusterFor: '5m',
    recreatedIndexEntries: 100,
    // OVNRaftExporterClockSkew: an exporter's own time (ovn_raft_exporter_time_seconds) more
    // than this many seconds off the time of its scrape, for exporterClockSkewFor. A page is
    // rendered after its read, within the scrape timeout: its time leads the scrape's by that.
    exporterClockSkewSeconds: 30,
    exporterClockSkewFor: '10m',
    // The evaluation interval of the consensus records and of the alerts; '' keeps
    // Prometheus' global one. Keep it at most 1m: stale candidates must have been named a
    // minute before (offset 1m).
    ruleGroupInterval: '',
    // The interval of ovn-raft-slow.rules (the releases, the log's compaction and the
    // database index's history, whose alerts wait minutes, recreatedClusterFor, or hours) and
    // of ovn-raft-slow.alerts (slowAlerts below). Not below ruleGroupInterval; at most
    // recreatedClusterFor.
    slowRuleGroupInterval: '1m',
    // The alerts evaluated every slowRuleGroupInterval, in a group of their own
    // (ovn-raft-slow.alerts): on facts that change over hours (releases, a filesystem's trend,
    // the configuration, a clock), with a for: of 10m or more. An alert here is evaluated only
    // that often: shorten its for: below a few intervals and it may never fire; take it out of
    // the list instead. The alerts on the slow records that read few series stay at
    // ruleGroupInterval (OVNRaftClusterRecreated, OVNRaftLogNotCompacted).
    slowAlerts: [
      'OVNRaftExpectedSizeUnknown',
      'OVNRaftDatabaseFilesystemFillingUp',
      'OVNRaftMixedReleases',
      'OVNRaftReleaseWithKnownRaftDefects',
      'OVNRaftStatusNotUnderstood',
      'OVNRaftExporterClockSkew',
    ],
    runbookURLPattern: 'https://github.com/ovn-raft-exporter/ovn-raft-exporter/blob/main/RUNBOOK.md#%s',

    grafanaDashboardTags: ['ovn', 'ovn-raft'],
    grafanaRefresh: '30s',

    // Derived: the label lists the expressions use.
    labels:: {
      deployment: std.join(', ', $._config.deploymentLabels),
      deploymentDb: std.join(', ', $._config.deploymentLabels + ['db']),
      cluster: std.join(', ', $._config.deploymentLabels + ['db', 'cluster_id']),
      member: std.join(', ', $._config.deploymentLabels + $._config.memberLabels),
      // One exporter's own series (ovn_raft_exporter_time_seconds): the member labels but db.
      exporter: std.join(', ', $._config.deploymentLabels + [l for l in $._config.memberLabels if l != 'db']),
      // Drops the series of members in failure mode: their role and leader are frozen.
      unlessFailed: 'unless on (%s) ovn_raft_instance:storage_failed:info{reason="io_error"}' % self.member,
      // The recorded table of member IDs and addresses the member rules share (rules.libsonnet).
      table: 'ovn_raft_cluster_member_address:named_by:count',
      selector: $._config.selector,
      exporterSelector: $._config.exporterSelector,
      expectedReplicasSelector: $._config.expectedReplicasSelector,
      followerLagEntries: $._config.followerLagEntries,
      backlogEntries: $._config.backlogEntries,
      memberRejoinSeconds: $._config.memberRejoinSeconds,
      filesystemFillingUpPercent: $._config.filesystemFillingUpPercent,
      filesystemPredictWindow: $._config.filesystemPredictWindow,
      filesystemAlmostFullPercent: $._config.filesystemAlmostFullPercent,
      logCompactionOverdueSeconds: $._config.logCompactionOverdueSeconds,
      exporterClockSkewSeconds: $._config.exporterClockSkewSeconds,
      leaderChangesThreshold: $._config.leaderChangesThreshold,
      leaderChangesWindow: $._config.leaderChangesWindow,
      slowMemberWindow: $._config.slowMemberWindow,
      slowMemberLagEntries: $._config.slowMemberLagEntries,
      slowMemberPeerFactor: $._config.slowMemberPeerFactor,
      leadershipTransfersThreshold: $._config.leadershipTransfersThreshold,
      leadershipTransfersWindow: $._config.leadershipTransfersWindow,
      noLongerClusteredWindow: $._config.noLongerClusteredWindow,
      recreatedIndexEntries: $._config.recreatedIndexEntries,
      // Exporter targets whose database is not clustered (standalone, relay: `_Server` says so),
      // to leave out of the rules about Raft clusters: their --cluster.* flags describe no
      // cluster. A target that has not read its database yet is not left out.
      notClustered: '(ovn_raft_clustered{%s} == 0)' % $._config.selector,
      // The ranges the selectors read for those windows (rangeOf above).
      slowMemberRange: rangeOf($._config.slowMemberWindow),
      leaderChangesRange: rangeOf($._config.leaderChangesWindow),
      leadershipTransfersRange: rangeOf($._config.leadershipTransfersWindow),
      multipleLeadersRange: rangeOf($._config.multipleLeadersWindow),
      exporterDownRange: rangeOf($._config.exporterDownFor),
      filesystemPredictRange: rangeOf($._config.filesystemPredictWindow),
      noLongerClusteredRange: rangeOf($._config.noLongerClusteredWindow),
      recreatedClusterRange: rangeOf($._config.recreatedClusterWindow),
      stallRange: rangeOf($._config.stallWindow),
      notCatchingUpRange: rangeOf('2m'),
      backlogTrendRange: rangeOf('10m'),
      // The windows in seconds, for a comparison with time().
      leaderChangesWindowSeconds: std.toString(durationSeconds($._config.leaderChangesWindow)),
      leadershipTransfersWindowSeconds: std.toString(durationSeconds($._config.leadershipTransfersWindow)),
      // The smaller clusters of a database whose members split into several cluster IDs.
      splitOff: '(ovn_raft_cluster:members_union:count < on (%s) group_left max by (%s) (ovn_raft_cluster:members_union:count))'
                % [self.deploymentDb, self.deploymentDb],
    },
  },
}
