// Grafana dashboards: an overview of every OVN Raft cluster and a per-cluster detail view.
// Plain JSON models (no grafonnet), so nothing but jsonnet is needed to build them.
local ds = { type: 'prometheus', uid: '${datasource}' };

// A query. `mayBeEmpty`: no data is normal in a healthy cluster (tests/ honour it).
local q(expr, legend='', instant=false, mayBeEmpty=false) = {
  datasource: ds,
  expr: expr,
  legendFormat: legend,
  refId: 'A',
  [if instant then 'instant']: true,
  [if instant then 'format']: 'table',
  [if mayBeEmpty then 'ovnRaftMayBeEmpty']: true,
};

local panel(type, title, description, unit, targets, x, y, w, h) = {
  type: type,
  title: title,
  description: description,
  datasource: ds,
  gridPos: { x: x, y: y, w: w, h: h },
  fieldConfig: { defaults: { unit: unit }, overrides: [] },
  targets: [t { refId: std.char(65 + i) } for i in std.range(0, std.length(targets) - 1) for t in [targets[i]]],
};

local stat(title, description, unit, expr, x, y, w=4, h=4, mayBeEmpty=false) =
  panel('stat', title, description, unit, [q(expr, instant=false, mayBeEmpty=mayBeEmpty)], x, y, w, h)
  + { options: { reduceOptions: { calcs: ['lastNotNull'] }, colorMode: 'value' } };

local series(title, description, unit, targets, x, y, w=12, h=8) =
  panel('timeseries', title, description, unit, targets, x, y, w, h);

local table(title, description, targets, x, y, w=12, h=8, transformations=[]) =
  panel('table', title, description, 'none', targets, x, y, w, h)
  + { transformations: transformations };

local variable(name, label, query, multi=false) = {
  name: name,
  label: label,
  type: 'query',
  datasource: ds,
  query: { query: query, refId: name },
  refresh: 2,
  multi: multi,
  includeAll: multi,
  sort: 1,
};

local datasourceVariable = {
  name: 'datasource',
  label: 'Data source',
  type: 'datasource',
  query: 'prometheus',
  current: {},
};

local dashboard(uid, title, description, variables, panels, tags, refresh) = {
  uid: uid,
  title: title,
  description: description,
  tags: tags,
  timezone: 'utc',
  refresh: refresh,
  schemaVersion: 38,
  editable: true,
  time: { from: 'now-6h', to: 'now' },
  templating: { list: [datasourceVariable] + variables },
  panels: panels,
};

{
  grafanaDashboards+:: {
    local cfg = $._config,
    local deps = cfg.deploymentLabels,
    // Every deployment label is a variable, each listing the values under the ones before it.
    local matchers(labels) = std.join(', ', [l + '=~"$' + l + '"' for l in labels]),
    local sel = matchers(deps),
    local depVariables(multi) = [
      variable(deps[i], deps[i],
               'label_values(ovn_raft_server_info%s, %s)'
               % [if i == 0 then '' else '{' + matchers(deps[0:i]) + '}', deps[i]], multi=multi)
      for i in std.range(0, std.length(deps) - 1)
    ],
    local depLegend = std.join(' ', ['{{%s}}' % l for l in deps]),
    local csel = sel + ', db="$db", cluster_id="$cluster_id"',
    local msel = sel + ', db="$db"',
    // Per-member gauges carry no cluster_id: keep the members of the selected cluster.
    local join = ' * on (%s) group_left (server_id) ovn_raft_server_info{%s}' % [cfg.labels.member, csel],
    local inCluster(metric) = metric + '{' + msel + '}' + join,

    'ovn-raft-overview.json': dashboard(
      'ovn-raft-overview',
      'OVN Raft / Overview',
      'Every OVN Raft cluster (NB, SB, IC) seen by ovn-raft-exporter: health at a glance.',
      depVariables(true),
      [
        stat('Clusters', 'Raft clusters (namespace, database, cluster ID) with a reporting member.',
             'none', 'count(ovn_raft_cluster:reporters:count{%s})' % sel, 0, 0),
        stat('Without a leader', 'Clusters in which no reporting member knows a leader.', 'none',
             'count(ovn_raft_cluster:has_leader:max{%s} == 0) or vector(0)' % sel, 4, 0),
        stat('Quorum at risk or lost', 'Clusters that tolerate no further member failure.', 'none',
             'count(ovn_raft_cluster:failure_tolerance:count{%s} <= 0) or vector(0)' % sel, 8, 0),
        stat('Views disagree', 'Clusters whose members hold different membership views.', 'none',
             'count(ovn_raft_cluster:views_agree:bool{%s} == 0) or vector(0)' % sel, 12, 0),
        stat('Stale suspects', 'Member IDs named but silent, with evidence of staleness.', 'none',
             'count(ovn_raft_cluster_member:stale_suspect:named_by{%s}) or vector(0)' % sel, 16, 0),
        stat('Firing alerts', 'OVN Raft alerts firing now.', 'none',
             'count(ALERTS{alertname=~"OVNRaft.*", alertstate="firing", %s}) or vector(0)' % sel, 20, 0),
        table('Clusters', 'One row per cluster: reporters, views, leaders, members, failures tolerated, Open vSwitch releases.', [
          q('ovn_raft_cluster:reporters:count{%s}' % sel, instant=true),
          q('ovn_raft_cluster:views:count{%s}' % sel, instant=true),
          q('ovn_raft_cluster:leaders:count{%s}' % sel, instant=true),
          q('ovn_raft_cluster:members_union:count{%s}' % sel, instant=true),
          q('ovn_raft_cluster:failure_tolerance:count{%s}' % sel, instant=true),
          q('ovn_raft_cluster:ovs_versions:count{%s}' % sel, instant=true),
        ], 0, 4, 24, 8, [{ id: 'merge', options: {} }]),
        series('Failures tolerated', 'Further member failures each cluster survives (< 0: quorum lost).',
               'none', [q('ovn_raft_cluster:failure_tolerance:count{%s}' % sel, '%s {{db}} {{cluster_id}}' % depLegend)],
               0, 12),
        series('Term', 'Highest Raft term per cluster: a rising term means elections.', 'none',
               [q('ovn_raft_cluster:term:max{%s}' % sel, '%s {{db}} {{cluster_id}}' % depLegend)], 12, 12),
        series('Exporters reading their database', 'ovn_raft_up per member and database.', 'none',
               [q('ovn_raft_up{%s}' % sel, '{{instance}} {{db}}')], 0, 20),
        series('Alerts', 'Pending and firing OVN Raft alerts.', 'none',
               [q('count by (alertname, alertstate) (ALERTS{alertname=~"OVNRaft.*", %s})' % sel,
                  '{{alertname}} {{alertstate}}', mayBeEmpty=true)], 12, 20),
        // Databases without Raft (no cluster_id, so none of the panels above): relays and
        // standalone databases, by their exporters' word.
        panel('row', 'Relays and standalone databases',
              'Databases an ovsdb-server serves without Raft: relays (a copy of a source cluster, kept over a client connection to it) and standalone databases.',
              'none', [], 0, 28, 24, 1) + { collapsed: false, panels: [] },
        table('Database models', "Exporters per deployment, database and model (_Server's): clustered databases are Raft members; standalone and relay databases have no Raft series.", [
          q('count by (%s, model) (ovn_raft_database_model_info{%s})' % [cfg.labels.deploymentDb, sel], instant=true),
        ], 0, 29, 8, 8),
        series('Relays connected to their source',
               'Per relay, 1 while it is in contact with its relay source (OVNRaftRelayDisconnected after 5 minutes at 0); per deployment and database, the relays and those connected (OVNRaftAllRelaysDisconnected when none is).',
               'none', [
                 q('ovn_raft_relay_connected{%s}' % sel, '{{instance}} {{db}}', mayBeEmpty=true),
                 q('ovn_raft_db:relays:count{%s}' % sel, '%s {{db}} relays' % depLegend, mayBeEmpty=true),
                 q('ovn_raft_db:relays_connected:count{%s}' % sel, '%s {{db}} connected' % depLegend, mayBeEmpty=true),
               ], 8, 29, 8, 8),
        series('Clients of relays and standalone databases',
               "Client sessions (ovn-controllers, northd, the CMS; the exporter's own is one) of each ovsdb-server serving a database without Raft (memory/show): a relay whose sessions drop lost its clients to another relay.",
               'none', [
                 q('ovn_raft_ovsdb_sessions{%s} * on (%s) group_left (model) ovn_raft_database_model_info{%s, model!="clustered"}'
                   % [sel, cfg.labels.member, sel], '{{instance}} {{db}} {{model}}', mayBeEmpty=true),
               ], 16, 29, 8, 8),
      ],
      cfg.grafanaDashboardTags, cfg.grafanaRefresh,
    ),

    'ovn-raft-cluster.json': dashboard(
      'ovn-raft-cluster',
      'OVN Raft / Cluster',
      'One OVN Raft cluster in detail: membership as each member sees it, quorum, elections, replication.',
      depVariables(false) + [
        variable('db', 'Database', 'label_values(ovn_raft_server_info{%s}, db)' % sel),
        variable('cluster_id', 'Cluster ID', 'label_values(ovn_raft_server_info{%s}, cluster_id)' % msel),
      ],
      [
        stat('Views agree', '1 when every reporting member holds the same membership view.', 'bool_yes_no',
             'ovn_raft_cluster:views_agree:bool{%s}' % csel, 0, 0, 3),
        stat('Majority view', '1 when a majority of the reporters hold one view.', 'bool_yes_no',
             'ovn_raft_cluster:majority_view:bool{%s}' % csel, 3, 0, 3),
        stat('Leaders', 'Members in the leader role (1 is right).', 'none',
             'ovn_raft_cluster:leaders:count{%s}' % csel, 6, 0, 3),
        stat('Live members', 'Members a living member vouches for: the leader and those it heard from recently, else those in contact with a majority and their connected peers.', 'none',
             'ovn_raft_cluster:live_members:count{%s}' % csel, 9, 0, 3),
        stat('Quorum', 'Votes needed: floor(members/2)+1 of the largest view.', 'none',
             'ovn_raft_cluster:quorum:size{%s}' % csel, 12, 0, 3),
        stat('Failures tolerated', 'Live members minus quorum: 0 is one failure from loss.', 'none',
             'ovn_raft_cluster:failure_tolerance:count{%s}' % csel, 15, 0, 3),
        stat('Members', 'Member IDs named by any view.', 'none',
             'ovn_raft_cluster:members_union:count{%s}' % csel, 18, 0, 3),
        stat('Expected', 'Expected members (--cluster.expected-members or kube-state-metrics).', 'none',
             'ovn_raft_cluster:expected_members:count{%s}' % csel, 21, 0, 3, mayBeEmpty=true),
        table('Membership as each member sees it',
              'Rows: reporting members; columns: member IDs they list; cells: 1 when listed.',
              [q('ovn_raft_member_info{%s}' % csel, instant=true)], 0, 4, 12, 8,
              [{ id: 'groupingToMatrix', options: { rowField: 'server_id', columnField: 'member_id', valueField: 'Value' } }]),
        table('Members', 'Every member ID: address, how many reporters name it.', [
          q('max by (member_id, address) (ovn_raft_member_info{%s})' % csel, instant=true),
          q('ovn_raft_cluster_member:named_by:count{%s}' % csel, instant=true),
        ], 12, 4, 12, 8, [{ id: 'merge', options: {} }]),
        table('Stale suspects and silent members',
              'Named but never reporting; stale suspects also share a host or exceed the expected size. Remove with cluster/kick (see RUNBOOK.md).',
              [
                q('ovn_raft_cluster_member:silent:named_by{%s}' % csel, instant=true, mayBeEmpty=true),
                q('ovn_raft_cluster_member:stale_suspect:named_by{%s}' % csel, instant=true, mayBeEmpty=true),
              ], 0, 12, 12, 6),
        table('Hosts claimed by several IDs', 'IP conflicts across all views.',
              [q('ovn_raft_cluster_host:member_ids:count{%s} > 1' % csel, instant=true, mayBeEmpty=true)],
              12, 12, 12, 6),
        series('Term', 'Raft term per member.', 'none',
               [q(inCluster('ovn_raft_term'), '{{server_id}}')], 0, 18),
        series('Elections', 'Term increases per member.', 'none',
               [q('changes(ovn_raft_term{%s}[$__rate_interval])' % msel + join, '{{server_id}}')], 12, 18),
        series('Commit and apply backlog', 'Log entries not yet committed / applied (max over members).', 'none', [
          q('ovn_raft_cluster:log_entries_uncommitted:max{%s}' % csel, 'uncommitted'),
          q('ovn_raft_cluster:log_entries_unapplied:max{%s}' % csel, 'unapplied'),
        ], 0, 26),
        series('Replication lag', 'Entries the leader holds that each member has not matched.', 'none',
               [q('ovn_raft_cluster_member:replication_lag:entries{%s}' % csel, '{{member_id}}')], 12, 26),
        series('Last message from each member (leader view)', 'Age of the last message the leader received from each member.', 's',
               [q(inCluster('ovn_raft_member_last_message_age_seconds') + ' and on (%s) (ovn_raft_role{role="leader"} == 1)' % cfg.labels.member, '{{member_id}}')], 0, 34),
        series('Connections', 'Raft connections per member, by direction and state.', 'none',
               [q('sum by (server_id, direction, state) (%s)' % inCluster('ovn_raft_connections'), '{{server_id}} {{direction}} {{state}}')], 12, 34),
        series('Disconnections', 'Raft connections lost per second.', 'ops',
               [q('rate(ovn_raft_disconnections_total{%s}[$__rate_interval])' % msel + join, '{{server_id}}')], 0, 42),
        series('Exporter read time', 'Time each exporter spent reading this database.', 's',
               [q('ovn_raft_exporter_read_duration_seconds{%s}' % msel, '{{instance}}')], 12, 42),
        series('Exporter errors', 'Failed reads per second, by reason.', 'ops',
               [q('sum by (instance, reason) (rate(ovn_raft_exporter_errors_total{%s}[$__rate_interval]))' % msel,
                  '{{instance}} {{reason}}', mayBeEmpty=true)], 0, 50),
        series('Exporter up', '1 when the exporter read this database.', 'none',
               [q('ovn_raft_up{%s}' % msel, '{{instance}}')], 12, 50),
        table("Each view's differences from the majority",
              'Per reporting member: member IDs its view lacks, lists in excess, or places at another address than the majority view (empty without a majority).',
              [
                q('ovn_raft_cluster_reporter_member:missing:info{%s}' % csel, instant=true, mayBeEmpty=true),
                q('ovn_raft_cluster_reporter_member:extra:info{%s}' % csel, instant=true, mayBeEmpty=true),
                q('ovn_raft_cluster_reporter_member:moved:info{%s}' % csel, instant=true, mayBeEmpty=true),
              ], 0, 58, 12, 8),
        table('Unexpected and missing hosts',
              'Members on hosts not expected (--cluster.expected-hosts or the database pods), and expected hosts without a member.',
              [
                q('ovn_raft_cluster_member:unexpected_host:named_by{%s}' % csel, instant=true, mayBeEmpty=true),
                q('ovn_raft_db_host:missing_member:bool{%s}' % msel, instant=true, mayBeEmpty=true),
              ], 12, 58, 12, 8),
        table('Stale suspects, ranked',
              'Score: host not expected 1000, not reporting 100, host claimed by another ID 50, plus 10 minus the reporters naming it. Never a member a living member hears from; trimmed to the excess over the expected size. Undecided: tied at that boundary, so none is named (see RUNBOOK.md, OVNRaftStaleMember).',
              [
                q('sort_desc(ovn_raft_cluster_member:stale_suspect:score{%s})' % csel, instant=true, mayBeEmpty=true),
                q('sort_desc(ovn_raft_cluster_member:stale_undecided:score{%s})' % csel, instant=true, mayBeEmpty=true),
              ],
              0, 66, 12, 6),
        table('Alive members', 'Members a living member vouches for (a member without a row is unknown, not dead).',
              [q('ovn_raft_cluster_member:alive:bool{%s}' % csel, instant=true)], 12, 66, 12, 6),
        table('Open vSwitch release of each member',
              "The release each member's ovsdb-server runs (its unixctl `version`). Several releases: an upgrade is rolling through the members (OVNRaftMixedReleases when it stays so).",
              [q('ovn_raft_cluster_member:ovs_version:info{%s}' % csel, instant=true)], 0, 72, 12, 8),
        series('Members per release', 'How many members run each Open vSwitch release: the progress of a rolling upgrade.', 'none',
               [q('count by (version) (ovn_raft_cluster_member:ovs_version:info{%s})' % csel, '{{version}}')], 12, 72, 12, 8),
        table('Members whose storage failed',
              'io_error: a write failed (a full disk) and the member is in failure mode until restarted; storage_error: ovsdb-server holds an error for the storage (OVNRaftMemberFailed, RUNBOOK.md).',
              [q('ovn_raft_cluster_member:storage_failed:info{%s}' % csel, instant=true, mayBeEmpty=true)], 0, 80, 12, 8),
        series('Log entries since the last snapshot',
               "Each member's Raft log beyond its last snapshot. ovsdb-server compacts it when the log file has passed 10 MiB and doubled, and at the latest 24 hours after the last snapshot: a sawtooth is healthy, a line that only rises is not.",
               'none', [q('(ovn_raft_log_next_index{%s} - ovn_raft_log_first_index{%s})' % [msel, msel] + join, '{{server_id}}')], 12, 80, 12, 8),
        series('Time without log compaction',
               'At least how long each member has gone without compacting its log (as its exporter saw), against the point past which it always would (OVNRaftLogNotCompacted).',
               's', [
                 // By the exporter's own clock (of the same scrape), which a clock set wrong
                 // does not fool; an exporter without it, against time().
                 q('(ovn_raft_exporter_time_seconds{%s} - on (%s) group_right ovn_raft_log_uncompacted_since_timestamp_seconds{%s} or time() - ovn_raft_log_uncompacted_since_timestamp_seconds{%s})'
                   % [sel, cfg.labels.exporter, msel, msel] + join, '{{server_id}}'),
                 q('vector(%d)' % cfg.logCompactionOverdueSeconds, 'compaction overdue'),
               ], 0, 88, 12, 8),
        series('Clients per member', "Client sessions (ovn-controllers, northd, the CMS; the exporter's own database connection is one) and the monitors they hold, per member (memory/show).",
               'none', [
                 q(inCluster('ovn_raft_ovsdb_sessions'), '{{server_id}} sessions'),
                 q(inCluster('ovn_raft_ovsdb_monitors'), '{{server_id}} monitors'),
               ], 12, 88, 12, 8),
        series('Backlogs per member', 'Bytes each member has queued and not sent yet: to its Raft peers, and to its clients. A leader whose Raft backlog grows cannot keep up with its followers.',
               'bytes', [
                 q(inCluster('ovn_raft_backlog_bytes'), '{{server_id}} raft'),
                 q(inCluster('ovn_raft_ovsdb_sessions_backlog_bytes'), '{{server_id}} clients'),
               ], 0, 96, 12, 8),
        series('Database size per member', 'Values (atoms) in the database and transactions kept for reconnecting clients, per member (memory/show).',
               'none', [
                 q(inCluster('ovn_raft_ovsdb_atoms'), '{{server_id}} atoms'),
                 q(inCluster('ovn_raft_ovsdb_transaction_history'), '{{server_id}} transaction history'),
               ], 12, 96, 12, 8),
        table('Members the leader does not hear',
              'Members that call themselves healthy cluster members while the leader has not heard from them (not_heard) or their log stays behind (not_catching_up): a full or read-only disk, a one-way cut, a stuck process (OVNRaftMemberUnheard, RUNBOOK.md).',
              [q('ovn_raft_cluster_member:unheard:info{%s}' % csel, instant=true, mayBeEmpty=true)], 0, 104, 12, 8),
        series('Database file and its filesystem',
               "Where the exporter is given the database file (a third path in --ovsdb.database): the file's size and the space left on its filesystem (OVNRaftDatabaseFilesystemFillingUp, OVNRaftDatabaseFilesystemAlmostFull).",
               'bytes', [
                 q(inCluster('ovn_raft_database_file_size_bytes'), '{{server_id}} file', mayBeEmpty=true),
                 q(inCluster('ovn_raft_database_filesystem_avail_bytes'), '{{server_id}} free', mayBeEmpty=true),
               ], 12, 104, 12, 8),
        series('Follower lag against its peers',
               "Each follower's median lag behind the leader's log over the last minute (the leader's word), and the members named slow: trailing at least 1 entry and more than 3 times the fastest follower, while the leader still hears them (OVNRaftMemberSlow: a slow disk, a starved CPU, a slow network path). The leader's own log against what it has committed on its followers' word: above 0 at most reads, its own disk is the slow one (OVNRaftLeaderSlow).",
               'none', [
                 q('ovn_raft_cluster_member:follower_lag:median{%s}' % csel, '{{member_id}} median lag'),
                 q('ovn_raft_cluster_member:slow:lag_entries{%s}' % csel, '{{member_id}} slow', mayBeEmpty=true),
                 q('ovn_raft_cluster_member:leader_commit_lag:entries{%s}' % csel, '{{member_id}} leader behind commit'),
                 q('ovn_raft_cluster_member:slow_leader:lag_entries{%s}' % csel, '{{member_id}} slow leader', mayBeEmpty=true),
               ], 0, 112, 12, 8),
        series('Leadership transfers',
               'Leadership transfers each member took over within the last %(w)s (a leader hands over before it writes a snapshot, and when it stops gracefully or leaves), their sum against the warning threshold, and the minutes since the last transfer: its peaks are the cadence (a busy database snapshots every half hour or more, a member at most every 10-20 minutes). Against all leader changes: transfers are not elections by timeout (OVNRaftFrequentLeadershipTransfers, OVNRaftFrequentElections).' % { w: cfg.leadershipTransfersWindow },
               'none', [
                 q('ovn_raft_cluster_member:leadership_transfers:count{%s}' % csel, '{{server_id}} transfers', mayBeEmpty=true),
                 q('sum(ovn_raft_cluster_member:leadership_transfers:count{%s})' % csel, 'transfers in %s' % cfg.leadershipTransfersWindow, mayBeEmpty=true),
                 q('vector(%d)' % cfg.leadershipTransfersThreshold, 'warning threshold'),
                 q('(time() - max(ovn_raft_cluster_member:leadership_transfer_started:timestamp_seconds{%s})) / 60' % csel, 'minutes since the last transfer', mayBeEmpty=true),
                 q('changes(ovn_raft_cluster:leader_term:max{%s}[$__rate_interval])' % csel, 'leader changes'),
               ], 12, 112, 12, 8),
        series('Main-loop stalls: late answers',
               "How long each member's ovsdb-server took to answer its exporter's cluster/status, against its election timer. The server runs Raft on one main loop: a loop stalled (a large transaction, a blocking disk) or starved of CPU answers late, sends no heartbeat and answers no vote; a stall near the election timer costs an election (OVNRaftServerStalled).",
               's', [
                 q(inCluster('ovn_raft_ovsdb_server_response_seconds'), '{{server_id}} answered after'),
                 q(inCluster('ovn_raft_election_timer_seconds'), '{{server_id}} election timer'),
               ], 0, 120, 12, 8),
        series('Main-loop stalls: long turns',
               "Turns of each member's main loop that took a second or longer (\"Unreasonably long poll interval\" in its log; Open vSwitch 3.3 and later), per interval: time spent working without a heartbeat. A stopped or starved process shows only as a late answer.",
               'none', [
                 q('increase(ovn_raft_ovsdb_server_long_poll_intervals_total{%s}[$__rate_interval])' % msel + join, '{{server_id}}', mayBeEmpty=true),
               ], 12, 120, 12, 8),
      ],
      cfg.grafanaDashboardTags, cfg.grafanaRefresh,
    ),
  },
}
