// Alerts (see RUNBOOK.md). Expressions are templates over _config (mixin/config.libsonnet).
// Descriptions say $DEPLOYMENT for the deployment labels' values and $VALUE_OF(recorded) for
// the value of a recorded cluster series of the alert's cluster; one pass (decorate, below)
// spells them out for the configured labels and adds every alert's runbook_url.
{
  local deploymentLabels = $._config.deploymentLabels,
  local clusterLabels = deploymentLabels + ['db', 'cluster_id'],
  local deploymentText = std.join('/', ['{{ $labels.%s }}' % l for l in deploymentLabels]),
  // The value of `metric` for the alert's cluster, by a query in the alert's template.
  local valueOf(metric) =
    '{{ with printf `%s{%s}` %s | query }}{{ . | first | value }}{{ end }}' % [
      metric,
      std.join(',', ['%s="%%s"' % l for l in clusterLabels]),
      std.join(' ', ['$labels.' + l for l in clusterLabels]),
    ],
  // Whether the alert's member (server_id) is its cluster's leader, as a template's condition.
  local memberIsLeader =
    'printf `ovn_raft_instance:server_info:leader{%s,server_id="%%s"}` %s $labels.server_id | query' % [
      std.join(',', ['%s="%%s"' % l for l in clusterLabels]),
      std.join(' ', ['$labels.' + l for l in clusterLabels]),
    ],
  local spellOut(text) =
    std.strReplace(
      std.foldl(
        function(t, m) std.strReplace(t, '$VALUE_OF(%s)' % m, valueOf(m)),
        ['ovn_raft_cluster:live_members:count', 'ovn_raft_cluster:quorum:size'],
        text
      ),
      '$DEPLOYMENT', deploymentText
    ),
  local decorate(alert) = alert {
    annotations+: {
      description: spellOut(alert.annotations.description),
      runbook_url: $._config.runbookURLPattern % std.asciiLower(alert.alert),
    },
  },

  prometheusAlerts+:: {
    local slow(alert) = std.member($._config.slowAlerts, alert.alert),
    groups+: [
      {
        name: 'ovn-raft.alerts',
        [if $._config.ruleGroupInterval != '' then 'interval']: $._config.ruleGroupInterval,
        rules: [decorate(alert) for alert in $.prometheusAlerts.ovnRaftAlerts if !slow(alert)],
      },
      {
        // The alerts on slow facts (the slow group's records, releases, a filesystem's trend,
        // configuration) or with a for: of 5m and more that a minute's delay does not change.
        name: 'ovn-raft-slow.alerts',
        interval: $._config.slowRuleGroupInterval,
        rules: [decorate(alert) for alert in $.prometheusAlerts.ovnRaftAlerts if slow(alert)],
      },
    ],
    ovnRaftAlerts:: [
      {
        alert: 'OVNRaftExporterDown',
        expr: "up{%(exporterSelector)s} == 0" % $._config.labels,
        'for': $._config.exporterDownFor,
        labels: { severity: 'warning' },
        annotations: {
          summary: "An OVN Raft exporter cannot be scraped.",
          description: "Prometheus cannot scrape {{ $labels.instance }} (job {{ $labels.job }}) for 5 minutes: the Raft state of that member is unknown.",
        },
      },
      {
        // The exporter's last word within exporterDownFor: a restart of the exporter (a
        // crash-looping sidecar) or a failed scrape does not start the pending time anew.
        // Resolves at once when the exporter reads its database again, and an exporter gone
        // for longer is OVNRaftExporterDown's.
        alert: 'OVNRaftDatabaseUnreadable',
        expr: "last_over_time(ovn_raft_up{%(selector)s}[%(exporterDownRange)s]) == 0" % $._config.labels,
        'for': '5m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "An exporter cannot read its ovsdb-server's Raft status.",
          description: "{{ $labels.instance }} has not read the Raft status of {{ $labels.db }} for 5 minutes; see ovn_raft_exporter_errors_total and /status for the reason.",
        },
      },
      {
        // A relay database (no Raft: ovn_raft_database_model_info{model="relay"}) out of
        // contact with its relay source. ovsdb-server reports a relay that reconnects as
        // connected for 30 s, and one that re-syncs after its source changed as disconnected
        // until it has the source's data again: relayDisconnectedFor outlasts both.
        alert: 'OVNRaftRelayDisconnected',
        expr: 'ovn_raft_relay_connected{%(selector)s} == 0' % $._config.labels,
        'for': $._config.relayDisconnectedFor,
        labels: { severity: 'warning' },
        annotations: {
          summary: 'An OVN relay database has lost contact with its relay source.',
          description: "{{ $labels.instance }} serves {{ $labels.db }} as a relay and has not been in contact with its relay source for %s: it holds stale data and cannot forward writes; its clients move to another relay when they were given several, else they see no updates." % $._config.relayDisconnectedFor,
        },
      },
      {
        // Every relay of a database in a deployment out of contact with its source: the
        // clients that read from the relays (ovn-controllers) see no updates at all.
        alert: 'OVNRaftAllRelaysDisconnected',
        expr: |||
          ovn_raft_db:relays:count
            and on (%(deploymentDb)s) (ovn_raft_db:relays_connected:count == 0)
        ||| % $._config.labels,
        'for': $._config.relayDisconnectedFor,
        labels: { severity: 'critical' },
        annotations: {
          summary: 'Every OVN relay of a database has lost contact with its relay source.',
          description: "{{ $labels.db }} in $DEPLOYMENT has {{ $value }} relays and none has been in contact with its relay source for %s: the clients that read from the relays (ovn-controllers) see no updates and their writes fail. Look at the source cluster first (OVNRaftQuorumLost, OVNRaftNoLeader), then at the path from the relays to it." % $._config.relayDisconnectedFor,
        },
      },
      {
        // An exporter target's database that was clustered within the window and now
        // reports another model: the deployment was rebuilt (Kube-OVN's single mode serves
        // standalone databases), or a member was replaced by a relay. Its Raft alerts no longer
        // apply; from ovn_raft_clustered, which exporters of every release serve, and the
        // model, which says what it became. Clears a window after the last clustered reading.
        alert: 'OVNRaftDatabaseNoLongerClustered',
        expr: |||
          ovn_raft_database_model_info{%(selector)s, model!="clustered"}
            and on (%(member)s) (max_over_time(ovn_raft_clustered{%(selector)s}[%(noLongerClusteredRange)s]) == 1)
        ||| % $._config.labels,
        'for': $._config.noLongerClusteredFor,
        labels: { severity: 'warning' },
        annotations: {
          summary: 'An OVN database that was a Raft cluster member is no longer clustered.',
          description: "{{ $labels.instance }} serves {{ $labels.db }} as a {{ $labels.model }} database; within the last %s it served it as a member of a Raft cluster. If the deployment was rebuilt on purpose this is expected (the alert clears %s after the last clustered reading); if not, its database was replaced: it no longer replicates, a single failure loses it, and the Raft alerts no longer watch it." % [$._config.noLongerClusteredWindow, $._config.noLongerClusteredWindow],
        },
      },
      {
        alert: 'OVNRaftNoLeader',
        expr: "ovn_raft_cluster:has_leader:max == 0" % $._config.labels,
        'for': '1m',
        labels: { severity: 'critical' },
        annotations: {
          summary: "An OVN Raft cluster has no leader.",
          description: "No member of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) knows a leader: the database accepts no writes.",
        },
      },
      {
        // Every claim count over multipleLeadersWindow above one: not the single scrape
        // round in which the old and the new leader of a clean transfer both claim.
        alert: 'OVNRaftMultipleLeaders',
        expr: "min_over_time(ovn_raft_cluster:leader_claims:count[%(multipleLeadersRange)s]) > 1" % $._config.labels,
        'for': $._config.multipleLeadersFor,
        labels: { severity: 'critical' },
        annotations: {
          summary: "Several members of an OVN Raft cluster claim to lead.",
          description: "{{ $value }} members of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) report the leader role.",
        },
      },
      {
        alert: 'OVNRaftLeaderDisagreement',
        expr: "ovn_raft_cluster:leader_ids:count > 1" % $._config.labels,
        'for': '5m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "Members of an OVN Raft cluster follow different leaders.",
          description: "Members of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) name {{ $value }} different leaders.",
        },
      },
      {
        alert: 'OVNRaftClusterIDSplit',
        // The identities the consensus group recorded: no second read of the raw series.
        expr: 'count by (%(deploymentDb)s) (count by (%(cluster)s) (ovn_raft_instance:server_info:max)) > 1' % $._config.labels,
        'for': '5m',
        labels: { severity: 'critical' },
        annotations: {
          summary: "Members of one OVN deployment belong to different Raft clusters.",
          description: "Members of {{ $labels.db }} in $DEPLOYMENT report {{ $value }} different cluster IDs: at least one member was re-created as a cluster of its own.",
        },
      },
      {
        // Clients (ovn-controller, ovn-northd) refuse every member of the database as stale
        // until reset: critical. A rebuild (a new cluster ID, the old one gone: two at once is
        // OVNRaftClusterIDSplit), or a restore of older files (the same cluster ID, its
        // highest index gone back).
        alert: 'OVNRaftClusterRecreated',
        expr: |||
          ovn_raft_cluster:previous_cluster_ahead:entries
          or
          ovn_raft_cluster:database_index_regression:entries
        |||,
        'for': $._config.recreatedClusterFor,
        labels: { severity: 'critical' },
        annotations: {
          summary: 'The index of an OVN database went back: its clients refuse it as stale until reset.',
          description: '{{ if $labels.previous_cluster_id }}{{ $labels.db }} in $DEPLOYMENT was rebuilt: cluster {{ $labels.previous_cluster_id }} is gone, cluster {{ $labels.cluster_id }} serves it {{ $value | printf "%.0f" }} entries below the old one\'s highest index.{{ else }}The highest applied index of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) went back by {{ $value | printf "%.0f" }} entries: the database was restored from an older copy.{{ end }} Clients that read the higher index refuse every member ("clustered database server has stale data") until it passes that index or they are reset: {{ if eq $labels.db "OVN_Southbound" }}ovn-appctl -t ovn-controller sb-cluster-state-reset on every chassis, and ovn-appctl -t ovn-northd sb-cluster-state-reset{{ else if eq $labels.db "OVN_Northbound" }}ovn-appctl -t ovn-northd nb-cluster-state-reset{{ else }}restart ovn-ic{{ end }}.',
        },
      },
      {
        alert: 'OVNRaftMembershipViewsDisagree',
        expr: "ovn_raft_cluster:views:count > 1" % $._config.labels,
        'for': '10m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "Members of an OVN Raft cluster disagree on its membership.",
          description: "Members of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) hold {{ $value }} different membership views.",
        },
      },
      {
        alert: 'OVNRaftNoMajorityView',
        expr: "ovn_raft_cluster:majority_view:bool == 0" % $._config.labels,
        'for': '10m',
        labels: { severity: 'critical' },
        annotations: {
          summary: "No membership view of an OVN Raft cluster is held by a majority.",
          description: "No view of the membership of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) is shared by a majority of its reporting members.",
        },
      },
      {
        alert: 'OVNRaftQuorumLost',
        expr: "ovn_raft_cluster:failure_tolerance:count < 0" % $._config.labels,
        'for': '1m',
        labels: { severity: 'critical' },
        annotations: {
          summary: "An OVN Raft cluster has lost quorum.",
          description: "Only $VALUE_OF(ovn_raft_cluster:live_members:count) members of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) are alive; the quorum is $VALUE_OF(ovn_raft_cluster:quorum:size).",
        },
      },
      {
        alert: 'OVNRaftQuorumAtRisk',
        // Not for a member split off into a cluster of its own: OVNRaftClusterIDSplit pages.
        expr: "ovn_raft_cluster:failure_tolerance:count == 0 unless on (%(cluster)s) %(splitOff)s" % $._config.labels,
        'for': '10m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "One more member failure loses the quorum of an OVN Raft cluster.",
          description: "{{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) tolerates no further member failure: members are down, or stale IDs have raised the quorum.",
        },
      },
      {
        alert: 'OVNRaftStaleMember',
        expr: "ovn_raft_cluster_member:stale_suspect:named_by > 0" % $._config.labels,
        'for': '10m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "An OVN Raft cluster keeps a stale member ID.",
          description: "Member {{ $labels.member_id }} at {{ $labels.address }} of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) is named by {{ $value }} members but never reports, and its host is claimed by another ID or the cluster is larger than expected. After checking the runbook, remove it from a healthy member: ovs-appctl -t /var/run/ovn/{{ if eq $labels.db \"OVN_Southbound\" }}ovnsb_db{{ else if eq $labels.db \"OVN_IC_Northbound\" }}ovn_ic_nb_db{{ else if eq $labels.db \"OVN_IC_Southbound\" }}ovn_ic_sb_db{{ else }}ovnnb_db{{ end }}.ctl cluster/kick {{ $labels.db }} {{ $labels.member_id }}",
        },
      },
      {
        alert: 'OVNRaftMemberOnUnexpectedHost',
        expr: "ovn_raft_cluster_member:unexpected_host:named_by > 0" % $._config.labels,
        'for': '15m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "An OVN Raft member runs on a host where no member is expected.",
          description: "Member {{ $labels.member_id }} at {{ $labels.address }} of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) is on {{ $labels.host }}, which is not an expected host (--cluster.expected-hosts or the database pods' nodes); {{ $value }} members name it. A replaced node's old member stays in the cluster until it is kicked.",
        },
      },
      {
        alert: 'OVNRaftExpectedHostWithoutMember',
        expr: "ovn_raft_db_host:missing_member:bool == 1" % $._config.labels,
        'for': '15m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "No OVN Raft member runs on an expected host.",
          description: "No member's view of {{ $labels.db }} ($DEPLOYMENT) names a member on {{ $labels.host }}, an expected host: its member never joined, or joined a cluster of its own.",
        },
      },
      {
        // One alert per difference, so that the IDs are in the labels.
        alert: 'OVNRaftViewDiffersFromMajority',
        expr: |||
          label_replace(
            label_replace(
              label_replace(ovn_raft_cluster_reporter_member:missing:info, "majority_address", "$1", "address", "(.+)"),
              "address", "-", "", ""
            ),
            "difference", "missing", "", ""
          )
          or
          label_replace(
            label_replace(ovn_raft_cluster_reporter_member:extra:info, "majority_address", "-", "", ""),
            "difference", "extra", "", ""
          )
          or
          label_replace(ovn_raft_cluster_reporter_member:moved:info, "difference", "moved", "", "")
        ||| % $._config.labels,
        'for': '10m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "A member's view of an OVN Raft cluster differs from the majority's.",
          description: "Member {{ $labels.server_id }}'s view of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) differs from the majority's on member {{ $labels.member_id }}: {{ $labels.difference }} (this view: {{ $labels.address }}; the majority's: {{ $labels.majority_address }}).",
        },
      },
      {
        alert: 'OVNRaftMemberNotReporting',
        // A stale suspect pages as such, and a member whose exporter has been down for
        // exporterDownFor as OVNRaftExporterDown (not one whose exporter restarts: it stays
        // named).
        expr: |||
          ovn_raft_cluster_member:silent:named_by
            unless on (%(cluster)s, member_id) ovn_raft_cluster_member:stale_suspect:named_by
            unless on (%(cluster)s, member_id) ovn_raft_cluster_member:exporter_down:bool
        ||| % $._config.labels,
        'for': '15m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "A member of an OVN Raft cluster does not report.",
          description: "Member {{ $labels.member_id }} of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) is named by {{ $value }} members but no exporter reports it: the member or its exporter is down.",
        },
      },
      {
        alert: 'OVNRaftHostClaimedByMultipleIDs',
        expr: "ovn_raft_cluster_host:member_ids:count > 1" % $._config.labels,
        'for': '10m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "Several member IDs of an OVN Raft cluster share one host.",
          description: "Host {{ $labels.host }} is claimed by {{ $value }} member IDs of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT): a member rejoined with a fresh database and its old ID remains.",
        },
      },
      {
        alert: 'OVNRaftTooManyMembers',
        expr: "ovn_raft_cluster:members_vs_expected:diff > 0" % $._config.labels,
        'for': '15m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "An OVN Raft cluster has more members than expected.",
          description: "{{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) has {{ $value }} more members than expected; each raises the quorum.",
        },
      },
      {
        alert: 'OVNRaftTooFewMembers',
        expr: "ovn_raft_cluster:members_vs_expected:diff < 0 unless on (%(cluster)s) %(splitOff)s" % $._config.labels,
        'for': '15m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "An OVN Raft cluster has fewer members than expected.",
          description: "{{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) has {{ $value }} members fewer than expected.",
        },
      },
      {
        // The two checks above compare against an expected size: an exporter's flag, else
        // kube-state-metrics' replicas, which hosts do not have. Where neither is known they
        // can never fire; one signal per deployment says so instead of their silence. The
        // exporters' flag is read straight too: the recorded size can trail the first scrapes
        // by an evaluation, and a size given must never read as none.
        alert: 'OVNRaftExpectedSizeUnknown',
        expr: |||
          count by (%(deployment)s) (
            ovn_raft_cluster:reporters:count
              unless on (%(cluster)s) ovn_raft_cluster:expected_members:count
              unless on (%(deploymentDb)s) max by (%(deploymentDb)s) (ovn_raft_expected_members{%(selector)s} unless on (%(member)s) %(notClustered)s)
          )
        ||| % $._config.labels,
        'for': '15m',
        labels: { severity: 'info' },
        annotations: {
          summary: "No expected size is known for OVN Raft clusters: the too-few and too-many member checks are off.",
          description: "{{ $value }} OVN Raft clusters of deployment \"$DEPLOYMENT\" have no expected size: none of their exporters has --cluster.expected-members or --cluster.expected-hosts, and kube-state-metrics gives no ovn-central replicas. OVNRaftTooFewMembers and OVNRaftTooManyMembers cannot fire for them. Give every exporter --cluster.expected-members (on hosts: ARGS in /etc/default/ovn-raft-exporter).",
        },
      },
      {
        // Elections the majority held that no leader asked for: leader changes, seen as rises
        // of the term of the members that know a leader, less the leadership transfers of the
        // same window (each raises the term once; OVNRaftFrequentLeadershipTransfers counts
        // them). What is left are elections by timeout: a leader that stopped being heard. A
        // member that campaigns alone raises only its own term (OVNRaftMemberCampaigning).
        // Resolves a window after the last change, and at once for a cluster that no longer
        // reports.
        alert: 'OVNRaftFrequentElections',
        expr: |||
          (
            changes(ovn_raft_cluster:leader_term:max[%(leaderChangesRange)s])
              - on (%(cluster)s)
            (
              sum by (%(cluster)s) (
                changes(ovn_raft_cluster_member:leadership_transfer_started:timestamp_seconds[%(leaderChangesRange)s])
                  + (
                    min_over_time(ovn_raft_cluster_member:leadership_transfer_started:timestamp_seconds[%(leaderChangesRange)s])
                      > bool (time() - %(leaderChangesWindowSeconds)s)
                  )
              )
              or
              ovn_raft_cluster:reporters:count * 0
            )
          ) >= %(leaderChangesThreshold)s
            and on (%(cluster)s) ovn_raft_cluster:reporters:count
        ||| % $._config.labels,
        'for': '2m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "The leader of an OVN Raft cluster changes often, by election timeouts.",
          description: "{{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) elected a new leader {{ $value }} times in the last %(leaderChangesWindow)s without a leadership transfer: the followers stopped hearing the leader (an overloaded or stalled leader, a network problem, an election timer too short for the database's size). Leadership transfers are counted apart (OVNRaftFrequentLeadershipTransfers)." % $._config.labels,
        },
      },
      {
        // Leaders that hand leadership over more often than snapshots account for (the
        // threshold: config.libsonnet): every transfer is an election, and clients connected
        // to the leader only (northd, the CMS) reconnect and may fetch the whole database
        // again. A busy database's transfers at its snapshot cadence stay under it.
        alert: 'OVNRaftFrequentLeadershipTransfers',
        expr: |||
          sum by (%(cluster)s) (ovn_raft_cluster_member:leadership_transfers:count) >= %(leadershipTransfersThreshold)s
            and on (%(cluster)s) ovn_raft_cluster:reporters:count
        ||| % $._config.labels,
        'for': $._config.leadershipTransfersFor,
        labels: { severity: 'warning' },
        annotations: {
          summary: "The leader of an OVN Raft cluster hands over leadership often.",
          description: "{{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) changed leaders by leadership transfer {{ $value }} times in the last %(leadershipTransfersWindow)s (per member: ovn_raft_cluster_member:leadership_transfers:count). A leader transfers leadership before it writes a snapshot (\"Transferring leadership to write a snapshot\" in its log), at most once per member every 10-20 minutes and on a busy database every half hour or more, and when it shuts down or leaves; each transfer is an election that clients of the leader notice. More than that: members restarting or leaving in a loop, or a log that grows so fast that every member snapshots as often as ovsdb-server allows; see the runbook." % $._config.labels,
        },
      },
      {
        // A member that knows no leader and keeps starting elections: cut off from its
        // peers, or the rest of the cluster is down. Resolves as soon as it follows a leader.
        // Its last election's start is taken onto Prometheus' clock (less its exporter's
        // clock_skew), which a clock set wrong does not fool.
        alert: 'OVNRaftMemberCampaigning',
        expr: |||
          (ovn_raft_has_leader{%(selector)s} == 0)
            * on (%(member)s) group_left (server_id, address) ovn_raft_server_info{%(selector)s}
            and on (%(member)s)
          (
            ovn_raft_last_election_started_timestamp_seconds{%(selector)s}
              - on (%(exporter)s) group_left
            ovn_raft_exporter:clock_skew:seconds
              > time() - 60
          )
        ||| % $._config.labels,
        'for': '5m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "An OVN Raft member keeps starting elections it cannot win.",
          description: "Member {{ $labels.server_id }} at {{ $labels.address }} ({{ $labels.instance }}) of {{ $labels.db }} has known no leader and kept starting elections for 5 minutes: it cannot reach a majority of its cluster.",
        },
      },
      {
        alert: 'OVNRaftMemberStuckJoining',
        expr: "ovn_raft_status{%(selector)s, status=\"joining\"} == 1" % $._config.labels,
        'for': '10m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "An OVN Raft member has been joining for long.",
          description: "{{ $labels.instance }} has been joining {{ $labels.db }} for 10 minutes: its remotes are unreachable or its old ID at the same address is still in the cluster.",
        },
      },
      {
        alert: 'OVNRaftMemberDisconnected',
        expr: "ovn_raft_status{%(selector)s, status=~\"disconnected|leaving\"} == 1" % $._config.labels,
        'for': '5m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "An OVN Raft member is cut off from its cluster.",
          description: "{{ $labels.instance }} reports status {{ $labels.status }} for {{ $labels.db }} for 5 minutes.",
        },
      },
      {
        alert: 'OVNRaftMemberFailed',
        expr: "ovn_raft_cluster_member:storage_failed:info" % $._config.labels,
        'for': '1m',
        labels: { severity: 'critical' },
        annotations: {
          summary: "An OVN Raft member's storage failed: it no longer takes part in its cluster.",
          description: "Member {{ $labels.server_id }} on {{ $labels.host }} of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) reports a storage failure ({{ $labels.reason }}): io_error is a failed write, usually a full disk, after which the member stays out of the cluster until restarted; free space, then restart it. Do not delete its database.",
        },
      },
      {
        // A member healthy by its own word that the leader does not hear. Long enough to
        // outlast an election and a restarted member's catching up; a member that runs and
        // stays unheard past that needs its cause fixed and a restart.
        alert: 'OVNRaftMemberUnheard',
        // Without the reason, which may change while the member stays unheard (it is in
        // ovn_raft_cluster_member:unheard:info and in ovn-raft-report).
        expr: "max by (%(cluster)s, server_id, host) (ovn_raft_cluster_member:unheard:info)" % $._config.labels,
        'for': $._config.memberUnheardFor,
        labels: { severity: 'warning' },
        annotations: {
          summary: "An OVN Raft member runs and calls itself a cluster member, but the leader does not hear it.",
          // The leader is never unheard by itself: named, its own log has stopped syncing.
          description: ("{{ if %s }}Member {{ $labels.server_id }} on {{ $labels.host }} leads {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) and reports itself a healthy cluster member, but for %s its own log has trailed what it has committed without catching up (not_catching_up: its own match index does not move; ovn_raft_cluster_member:leader_commit_lag:entries, ovn-raft-report): its own disk does not complete writes (stalled, full or read-only: I/O errors in its log). The cluster commits on its followers' disks while the leader's main loop holds up; once it stalls, the leader is deposed by an election. Fix the disk; if it is still named 5 minutes after, restart it on its existing database: another member leads." % [memberIsLeader, $._config.memberUnheardFor])
                       + ("{{ else }}Member {{ $labels.server_id }} on {{ $labels.host }} of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) reports itself a healthy cluster member, but for %s the leader has not heard from it, or its log has fallen behind the leader's without catching up (the reason: ovn_raft_cluster_member:unheard:info, ovn-raft-report). Usually its disk is full, read-only or stalled (I/O errors in its log), a one-way network cut, or a stuck process. A member whose stalled disk returns recovers by itself within seconds; fix the cause, and if it is still unheard 5 minutes after, restart it on its existing database (a follower whose write failed recovers only then).{{ end }}" % $._config.memberUnheardFor),
        },
      },
      {
        // A member whose ovsdb-server stalls: Raft, its clients and its storage share one
        // main loop, so meanwhile it sends no heartbeat and answers no vote; a stalled leader
        // loses its followers, a stalled follower may start an election when it wakes. The
        // value is the latest answer its exporter saw in the window (a lower bound of the
        // stall); the long turns the server counts itself (OVS 3.3 and later) catch stalls
        // between reads: for those the bar on the answer's lateness drops to 0, so that the
        // window is read once. Held through the window, so that the elections it causes
        // (OVNRaftFrequentElections) come with their cause.
        alert: 'OVNRaftServerStalled',
        expr: |||
          (
            max_over_time(ovn_raft_ovsdb_server_response_seconds{%(selector)s}[%(stallRange)s])
              >= on (%(member)s) group_left ()
            (
              %(fraction)s * ovn_raft_election_timer_seconds{%(selector)s}
                unless on (%(member)s)
              increase(ovn_raft_ovsdb_server_long_poll_intervals_total{%(selector)s}[%(stallRange)s]) >= %(longPolls)s
              or on (%(member)s)
              0 * ovn_raft_election_timer_seconds{%(selector)s}
            )
          )
            * on (%(member)s) group_left (cluster_id, server_id, host) ovn_raft_instance:server_info:max
        ||| % ($._config.labels { fraction: std.toString($._config.stallElectionTimerFraction), longPolls: std.toString($._config.stallLongPollIntervals) }),
        'for': $._config.stallFor,
        labels: { severity: 'warning' },
        annotations: {
          summary: "An OVN Raft member's ovsdb-server stalls: its main loop does not turn for long enough to cost elections.",
          description: "Member {{ $labels.server_id }} on {{ $labels.host }} ({{ $labels.instance }}) of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) answered its exporter up to {{ $value | humanizeDuration }} late within %(stallWindow)s, at least %(fraction)s of its election timer (ovn_raft_ovsdb_server_response_seconds), or its main loop took a second or longer %(longPolls)s times or more (ovn_raft_ovsdb_server_long_poll_intervals_total, \"Unreasonably long ...ms poll interval\" in its log). While its loop stalls it sends no heartbeat and answers no vote: the cause of elections by timeout. Look for CPU starvation (throttling, a busy node), a blocking disk, large transactions or compactions; raise the election timer above the stalls (see the runbook)." % { stallWindow: $._config.stallWindow, fraction: std.toString($._config.stallElectionTimerFraction), longPolls: std.toString($._config.stallLongPollIntervals) },
        },
      },
      {
        // A follower that trails the leader's log more than its peers, over time, while the
        // leader still hears it: the failure before the failure.
        alert: 'OVNRaftMemberSlow',
        expr: "ovn_raft_cluster_member:slow:lag_entries" % $._config.labels,
        'for': $._config.slowMemberFor,
        labels: { severity: 'warning' },
        annotations: {
          summary: "An OVN Raft member trails the leader's log more than its peers.",
          description: "Member {{ $labels.member_id }} of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) has trailed the leader's log by a median {{ $value }} entries over %(slowMemberWindow)s, more than %(slowMemberPeerFactor)s times its fastest peer (ovn_raft_cluster_member:follower_lag:median), for %(slowMemberFor)s: it acknowledges writes slower than the others while the leader still hears it. Look at its disk first (fsync latency: a follower syncs its log before it answers), then a starved CPU (throttling, a busy node), then the network path to the leader. It still counts for quorum; if it fails, one failure fewer is tolerated." % ($._config.labels { slowMemberFor: $._config.slowMemberFor }),
        },
      },
      {
        // A leader whose own log trails what it commits on its followers' word, over time:
        // its disk syncs slower than a follower's write and a round trip. Every write of the
        // cluster goes through the leader; a slow one slows every client's commits.
        alert: 'OVNRaftLeaderSlow',
        expr: "ovn_raft_cluster_member:slow_leader:lag_entries" % $._config.labels,
        'for': $._config.slowMemberFor,
        labels: { severity: 'warning' },
        annotations: {
          summary: "The leader of an OVN Raft cluster writes its own log slower than its followers.",
          description: "Member {{ $labels.member_id }}, the leader of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT), has committed entries its own log did not hold yet, a median {{ $value }} entries over %(slowMemberWindow)s, for %(slowMemberFor)s (ovn_raft_cluster_member:leader_commit_lag:entries): a majority of its followers writes each entry and answers sooner than the leader's own disk syncs it. Clients' commits slow down with it, and a leader whose disk then hangs stalls and is deposed. Look at its disk first (fsync latency, a noisy neighbour, I/O errors in its log), then a starved CPU; moving the leadership (restart the member) helps while its disk is fixed." % ($._config.labels { slowMemberFor: $._config.slowMemberFor }),
        },
      },
      {
        // Only where the exporter is given the database file (a third path in
        // --ovsdb.database): no series, no alert.
        alert: 'OVNRaftDatabaseFilesystemFillingUp',
        expr: |||
          (
            ovn_raft_database_filesystem_avail_bytes{%(selector)s} / ovn_raft_database_filesystem_size_bytes{%(selector)s} * 100 < %(filesystemFillingUpPercent)s
            and
            predict_linear(ovn_raft_database_filesystem_avail_bytes{%(selector)s}[%(filesystemPredictRange)s], 24 * 3600) < 0
          )
            * on (%(member)s) group_left (cluster_id, server_id, host) ovn_raft_instance:server_info:max
        ||| % $._config.labels,
        'for': $._config.filesystemFillingUpFor,
        labels: { severity: 'warning' },
        annotations: {
          summary: "The filesystem of an OVN Raft member's database will fill within a day.",
          description: "The filesystem holding the {{ $labels.db }} database of member {{ $labels.server_id }} on {{ $labels.host }} ({{ $labels.instance }}) has {{ printf \"%%.1f\" $value }}%% free and, at the rate of the last %s, fills within 24 hours; a full disk stops the member (OVNRaftMemberFailed, OVNRaftMemberUnheard)." % $._config.filesystemPredictWindow,
        },
      },
      {
        alert: 'OVNRaftDatabaseFilesystemAlmostFull',
        expr: |||
          (
            ovn_raft_database_filesystem_avail_bytes{%(selector)s} / ovn_raft_database_filesystem_size_bytes{%(selector)s} * 100 < %(filesystemAlmostFullPercent)s
          )
            * on (%(member)s) group_left (cluster_id, server_id, host) ovn_raft_instance:server_info:max
        ||| % $._config.labels,
        'for': $._config.filesystemAlmostFullFor,
        labels: { severity: 'critical' },
        annotations: {
          summary: "The filesystem of an OVN Raft member's database is nearly full.",
          description: "The filesystem holding the {{ $labels.db }} database of member {{ $labels.server_id }} on {{ $labels.host }} ({{ $labels.instance }}) has only {{ printf \"%.1f\" $value }}% free: when a write fails the member stops (a leader fails, a follower goes unheard) until space is freed and it is restarted.",
        },
      },
      {
        alert: 'OVNRaftLogNotCompacted',
        expr: "ovn_raft_cluster_member:log_compaction_overdue:seconds" % $._config.labels,
        'for': '15m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "An OVN Raft member has stopped compacting its log.",
          description: "The Raft log of member {{ $labels.server_id }} on {{ $labels.host }} of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) holds entries and has not been compacted into a snapshot for more than %s hours (how long: ovn_raft_cluster_member:log_compaction_overdue:seconds), past the 24 hours after which ovsdb-server always compacts: the log and the database file grow until the disk fills, and a restart replays all of it." % std.toString($._config.logCompactionOverdueSeconds / 3600),
        },
      },
      {
        alert: 'OVNRaftFollowerLagging',
        expr: "ovn_raft_cluster_member:replication_lag:entries > %(followerLagEntries)s" % $._config.labels,
        'for': '10m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "An OVN Raft follower lags behind the leader.",
          description: "Member {{ $labels.member_id }} of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) is {{ $value }} log entries behind the leader.",
        },
      },
      {
        alert: 'OVNRaftCommitBacklogGrowing',
        expr: "ovn_raft_cluster:log_entries_uncommitted:max > 100 and deriv(ovn_raft_cluster:log_entries_uncommitted:max[%(backlogTrendRange)s]) > 0" % $._config.labels,
        'for': '10m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "Uncommitted OVN Raft log entries keep piling up.",
          description: "{{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) holds {{ $value }} uncommitted entries and the number grows.",
        },
      },
      {
        alert: 'OVNRaftApplyBacklogGrowing',
        expr: "ovn_raft_cluster:log_entries_unapplied:max > 100 and deriv(ovn_raft_cluster:log_entries_unapplied:max[%(backlogTrendRange)s]) > 0" % $._config.labels,
        'for': '10m',
        labels: { severity: 'warning' },
        annotations: {
          summary: "Unapplied OVN Raft log entries keep piling up.",
          description: "A member of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) holds {{ $value }} committed but unapplied entries and the number grows.",
        },
      },
      {
        alert: 'OVNRaftMixedReleases',
        expr: "ovn_raft_cluster:ovs_versions:count > 1" % $._config.labels,
        'for': $._config.mixedReleasesFor,
        labels: { severity: 'warning' },
        annotations: {
          summary: "An OVN Raft cluster runs several Open vSwitch releases for longer than an upgrade takes.",
          description: "The members of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) have run {{ $value }} different ovsdb-server releases for %s: an upgrade stopped part way. See ovn_raft_cluster_member:ovs_version:info for who runs which." % $._config.mixedReleasesFor,
        },
      },
      {
        // One alert per cluster and release, valued by its members on that release, which
        // the record names: a release is the image's, shared by the members, and Prometheus
        // expands every label and annotation template of every alert at every evaluation,
        // which a fleet on an affected release would otherwise pay once per member.
        alert: 'OVNRaftReleaseWithKnownRaftDefects',
        expr: 'count by (%(cluster)s, version, fixed_in) (ovn_raft_cluster_member:raft_defect_release:info)' % $._config.labels,
        'for': $._config.raftDefectReleasesFor,
        labels: { severity: 'info' },
        annotations: {
          summary: 'OVN Raft members run an Open vSwitch release with known Raft defects.',
          description: "Members of {{ $labels.db }} (cluster {{ $labels.cluster_id }}, $DEPLOYMENT) run ovsdb-server {{ $labels.version }} ({{ $value }} of them: ovn_raft_cluster_member:raft_defect_release:info names them), a release before Open vSwitch fixed known Raft defects (fixed in: {{ $labels.fixed_in }}; see docs/ovs-raft-defects.md). Distributions backport fixes without changing the version: if your package has them, silence this alert for version={{ $labels.version }}.",
        },
      },
      {
        alert: 'OVNRaftStatusNotUnderstood',
        expr: "ovn_raft_parse_warnings{%(selector)s} > 0" % $._config.labels,
        'for': '1h',
        labels: { severity: 'info' },
        annotations: {
          summary: "The exporter meets cluster/status lines it does not understand.",
          description: "{{ $labels.instance }} skips {{ $value }} lines of the cluster/status of {{ $labels.db }}; a newer OVS may print new facts. See /status and report it.",
        },
      },
      {
        // An exporter whose wall clock differs from Prometheus' by more than a read and a
        // scrape take (ovn_raft_exporter:clock_skew:seconds). The rules
        // take every age against the exporter's own clock and stay right; the raw
        // *_timestamp_seconds series do not, and neither does what else reads that host's
        // clock (its logs, TLS certificates' validity).
        alert: 'OVNRaftExporterClockSkew',
        expr: |||
          ovn_raft_exporter:clock_skew:seconds > %(exporterClockSkewSeconds)s
            or
          ovn_raft_exporter:clock_skew:seconds < -%(exporterClockSkewSeconds)s
        ||| % $._config.labels,
        'for': $._config.exporterClockSkewFor,
        labels: { severity: 'info' },
        annotations: {
          summary: "An exporter's clock differs from Prometheus' clock.",
          description: "The wall clock of {{ $labels.instance }} is {{ printf \"%%.0f\" $value }} s off Prometheus' clock (ahead when positive, behind when negative) for %(exporterClockSkewFor)s: its *_timestamp_seconds series read that far off on dashboards and wherever they are read raw. The rules and alerts take ages against the exporter's own clock and are not fooled. Set the host's time right (NTP, chrony), or Prometheus' if every exporter is off alike." % $._config,
        },
      },
    ],
  },
}
