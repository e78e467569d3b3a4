// Recording rules: the cross-member consensus of OVN Raft clusters (see README).
// Expressions are templates over _config (mixin/config.libsonnet).
{
  // Expected hosts from kube-state-metrics, one copy per database (PromQL has no many-to-many
  // join to pair them with the clusters), for the deployments that report.
  local ksmExpectedHosts = std.join('\n  or ', [
    'label_replace(label_replace(%s, "host", "$1", "host_ip", "(.+)"), "db", "%s", "", "")'
    % [$._config.expectedHostsSelector, db]
    for db in $._config.expectedHostsDatabases
  ]),
  // Reporters outside the majority view, value 1, where a majority exists (recorded: no
  // series at all in a cluster whose views agree, so the slots below cost nothing there).
  local minority = 'ovn_raft_cluster_reporter:minority_view:info',
  // The k-th minority reporter of each cluster (at most one series per cluster), so that
  // every majority member can be paired with it: a one-to-one join, where "every minority
  // reporter with every member" would be many-to-many.
  local slot(k) =
    if k == 1 then 'topk by (%s) (1, %s)' % [$._config.labels.cluster, minority]
    else 'topk by (%s) (1, %s unless on (%s, server_id) (%s))' % [
      $._config.labels.cluster, minority, $._config.labels.cluster,
      std.join(' or ', [slot(j) for j in std.range(1, k - 1)]),
    ],
  // The suspect score's host terms, weighed alike wherever a score is summed: the host is
  // claimed by another ID (50), the host is not expected (1000).
  local hostTerms(indent) = std.join('\n' + indent, [
    'label_replace(',
    '  group by (%(cluster)s, member_id) (ovn_raft_cluster_member:shared_host:info) * 50,',
    '  "term", "shared_host", "", ""',
    ')',
    'or',
    'label_replace(',
    '  group by (%(cluster)s, member_id) (ovn_raft_cluster_member:unexpected_host:named_by) * 1000,',
    '  "term", "unexpected_host", "", ""',
    ')',
  ]) % $._config.labels,
  // Silent members with evidence of staleness that no living member vouches for, valued by
  // their suspect score (computed here from the sparse terms alone: a silent member's
  // named_by is its silent:named_by). Safety first: a member any living member is in
  // contact with (ovn_raft_cluster_member:alive:bool) is never a candidate, nor one first
  // named less than a minute ago (a member that just joined may be listed by one member
  // before the leader's report vouches for it). The
  // evidence: the host is not expected; or a live ID holds the same host; or the cluster is
  // larger than expected (then ties are settled by the ranking, or not at all).
  local staleCandidates = |||
    (
      sum by (%(cluster)s, member_id) (
        label_replace(110 - clamp_max(ovn_raft_cluster_member:silent:named_by, 10), "term", "silent", "", "")
        or
        %(hostTerms)s
      )
      and on (%(cluster)s, member_id) ovn_raft_cluster_member:silent:named_by
      unless on (%(cluster)s, member_id) ovn_raft_cluster_member:alive:bool
    )
    and on (%(cluster)s, member_id) (ovn_raft_cluster_member:named_by:count offset 1m)
    and on (%(cluster)s, member_id)
    (
      max by (%(cluster)s, member_id) (ovn_raft_cluster_member:unexpected_host:named_by)
      or
      max by (%(cluster)s, member_id) (
        ovn_raft_cluster_member:shared_host:info
          and on (%(cluster)s, host) ovn_raft_cluster_host:live_members:count
      )
      or
      (
        ovn_raft_cluster_member:silent:named_by
          and on (%(cluster)s) (ovn_raft_cluster:members_vs_expected:diff > 0)
      )
    )
  ||| % ($._config.labels { hostTerms: hostTerms('    ') }),
  // The e-th highest candidate score of each cluster is the least a suspect must beat: only
  // candidates scoring strictly above the (e+1)-th are named, so a tie at the boundary names
  // nobody (ovn_raft_cluster_member:stale_undecided:score says who and why).
  local candidatesOfExcess(e) = |||
    (
      ovn_raft_cluster_member:stale_candidate:score
        > on (%(cluster)s) group_left
      min by (%(cluster)s) (topk by (%(cluster)s) (%(next)d, ovn_raft_cluster_member:stale_candidate:score))
      or
      ovn_raft_cluster_member:stale_candidate:score
        and on (%(cluster)s) (count by (%(cluster)s) (ovn_raft_cluster_member:stale_candidate:score) <= %(e)d)
    )
    and on (%(cluster)s) (ovn_raft_cluster_with_candidates:members_vs_expected:diff == %(e)d)
  ||| % ($._config.labels { e: e, next: e + 1 }),

  prometheusRules+:: {
    groups+: [
      {
        name: 'ovn-raft-consensus.rules',
        [if $._config.ruleGroupInterval != '' then 'interval']: $._config.ruleGroupInterval,
        rules: [
          {
            // Each exporter's identity per database, with only the labels the joins need: the
            // one read of the raw ovn_raft_server_info that the per-member rules below share.
            record: 'ovn_raft_instance:server_info:max',
            expr: |||
              max by (%(member)s, cluster_id, server_id, host) (
                ovn_raft_server_info{%(selector)s, cluster_id!=""}
              )
            ||| % $._config.labels,
          },
          {
            // How far each exporter's wall clock is ahead of Prometheus' (behind when negative):
            // its own time less the time of the scrape that carried it, read once for the rules
            // that take a member's *_timestamp_seconds onto Prometheus' clock (less this), so
            // that an exporter whose clock is set wrong, or stepped, changes no verdict
            // (OVNRaftExporterClockSkew names it). An exporter of a release without that clock
            // counts as on time (0), so that those rules read its timestamps as they are with one
            // reading of each.
            record: 'ovn_raft_exporter:clock_skew:seconds',
            expr: |||
              ovn_raft_exporter_time_seconds{%(selector)s} - timestamp(ovn_raft_exporter_time_seconds{%(selector)s})
              or on (%(exporter)s)
              0 * max by (%(exporter)s) (ovn_raft_exporter_build_info{%(selector)s})
            ||| % $._config.labels,
          },
          {
            // Exporter targets whose member's storage failed, with why, read once: `io_error`, a
            // write failed (a full disk) and the member entered failure mode for good
            // (cluster/status "Status: failed"); `storage_error`, ovsdb-server holds an error
            // for the database's storage (get-db-storage-status: "inconsistent data"). Empty
            // while none has, so the rules that drop failed members pay nothing then.
            record: 'ovn_raft_instance:storage_failed:info',
            expr: |||
              max by (%(member)s, reason) (
                label_replace(ovn_raft_status{%(selector)s, status="failed"} == 1, "reason", "io_error", "", "")
                or
                label_replace(ovn_raft_storage_ok{%(selector)s} == 0, "reason", "storage_error", "", "") + 1
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster_view:reporters:count',
            expr: "count by (%(cluster)s, view_hash) (ovn_raft_view_info{%(selector)s, cluster_id!=\"\"})" % $._config.labels,
          },
          {
            // Summed from the views just recorded rather than counted from the raw series again.
            record: 'ovn_raft_cluster:reporters:count',
            expr: "sum by (%(cluster)s) (ovn_raft_cluster_view:reporters:count)" % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:views:count',
            expr: "count by (%(cluster)s) (ovn_raft_cluster_view:reporters:count)" % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:largest_view:reporters',
            expr: "max by (%(cluster)s) (ovn_raft_cluster_view:reporters:count)" % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:views_agree:bool',
            expr: "ovn_raft_cluster:views:count == bool 1" % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:majority_view:bool',
            expr: |||
              ovn_raft_cluster:largest_view:reporters
                >= bool (floor(ovn_raft_cluster:reporters:count / 2) + 1)
            ||| % $._config.labels,
          },
          {
            // No cluster_id!="" here: the views it joins have a cluster ID, and that matcher
            // costs about a fifth of the selector at 1,000 clusters.
            record: 'ovn_raft_cluster_reporter:majority_view:bool',
            expr: |||
              max by (%(cluster)s, server_id) (
                (
                  ovn_raft_view_info{%(selector)s}
                    * on (%(cluster)s, view_hash) group_left
                  ovn_raft_cluster_view:reporters:count
                )
                  == bool on (%(cluster)s) group_left
                ovn_raft_cluster:largest_view:reporters
              )
                * on (%(cluster)s) group_left
              ovn_raft_cluster:majority_view:bool
            ||| % $._config.labels,
          },
          {
            // Every member ID at every address any view gives it, with how many reporters
            // list it there: the one read of the views' raw series (three series per member
            // per reporter) that the member rules below share.
            record: 'ovn_raft_cluster_member_address:named_by:count',
            expr: "count by (%(cluster)s, member_id, address, host) (ovn_raft_member_info{%(selector)s, cluster_id!=\"\"})" % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster_member:named_by:count',
            expr: "sum by (%(cluster)s, member_id) (ovn_raft_cluster_member_address:named_by:count)" % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:members_union:count',
            expr: "count by (%(cluster)s) (ovn_raft_cluster_member:named_by:count)" % $._config.labels,
          },
          {
            // Named by some view but reporting none itself: the reporters are read from the
            // per-reporter rule above (one series per reporter), not from the raw views again.
            record: 'ovn_raft_cluster_member:silent:named_by',
            expr: |||
              ovn_raft_cluster_member:named_by:count
                unless on (%(cluster)s, member_id)
              label_replace(ovn_raft_cluster_reporter:majority_view:bool, "member_id", "$1", "server_id", "(.+)")
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster_host:member_ids:count',
            expr: |||
              count by (%(cluster)s, host) (
                count by (%(cluster)s, host, member_id) (%(table)s)
              )
            ||| % $._config.labels,
          },
          {
            // Members whose host another member ID also holds, one series per member and host
            // (none in a healthy cluster): the conflict the suspect rules below weigh. Filtered
            // before it is aggregated, so that a healthy cluster's rows go through one operation.
            record: 'ovn_raft_cluster_member:shared_host:info',
            expr: |||
              group by (%(cluster)s, member_id, host) (
                %(table)s and on (%(cluster)s, host) (ovn_raft_cluster_host:member_ids:count > 1)
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:conflicting_hosts:count',
            expr: "sum by (%(cluster)s) (ovn_raft_cluster_host:member_ids:count > bool 1)" % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster_member:addresses:count',
            expr: |||
              count by (%(cluster)s, member_id) (
                count by (%(cluster)s, member_id, address) (%(table)s)
              )
            ||| % $._config.labels,
          },
          {
            // An exporter beside a standalone or relay database of the same deployment gives no
            // size: its flags describe no Raft cluster.
            record: 'ovn_raft_cluster:expected_members:count',
            expr: |||
              (
                ovn_raft_cluster:reporters:count * 0
                  + on (%(deploymentDb)s) group_left
                max by (%(deploymentDb)s) (ovn_raft_expected_members{%(selector)s} unless on (%(member)s) %(notClustered)s)
              )
              or
              (
                ovn_raft_cluster:reporters:count * 0
                  + on (%(deployment)s) group_left
                max by (%(deployment)s) (
                  %(expectedReplicasSelector)s
                )
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:members_vs_expected:diff',
            expr: "ovn_raft_cluster:members_union:count - ovn_raft_cluster:expected_members:count" % $._config.labels,
          },
          {
            // Each expected host, per deployment and database: --cluster.expected-hosts, or else the
            // database pods' hosts from kube-state-metrics. Not from the exporter of a standalone
            // or relay database: no member of a Raft cluster is expected beside it.
            record: 'ovn_raft_db_host:expected:bool',
            expr: (|||
                     max by (%(deploymentDb)s, host) (ovn_raft_expected_host_info{%(selector)s} unless on (%(member)s) %(notClustered)s)
                   ||| % $._config.labels) + (
              if $._config.expectedHostsSelector == '' then '' else |||
                or
                (
                  max by (%(deploymentDb)s, host) (
                    %(ksm)s
                  )
                  and on (%(deploymentDb)s) ovn_raft_cluster:reporters:count
                  unless on (%(deploymentDb)s) max by (%(deploymentDb)s) (ovn_raft_expected_host_info{%(selector)s} unless on (%(member)s) %(notClustered)s)
                )
              ||| % ($._config.labels { ksm: ksmExpectedHosts })
            ),
          },
          {
            // Members on a host that is not expected (a replaced node's old member), named by
            // how many reporters; only where expected hosts are known.
            record: 'ovn_raft_cluster_member:unexpected_host:named_by',
            expr: |||
              %(table)s
                unless on (%(deploymentDb)s, host) ovn_raft_db_host:expected:bool
                and on (%(deploymentDb)s) ovn_raft_db_host:expected:bool
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:unexpected_hosts:count',
            expr: |||
              count by (%(cluster)s) (count by (%(cluster)s, host) (ovn_raft_cluster_member:unexpected_host:named_by))
              or
              (ovn_raft_cluster:reporters:count and on (%(deploymentDb)s) ovn_raft_db_host:expected:bool) * 0
            ||| % $._config.labels,
          },
          {
            // Expected hosts no view names: a member that never joined.
            record: 'ovn_raft_db_host:missing_member:bool',
            expr: |||
              ovn_raft_db_host:expected:bool
                unless on (%(deploymentDb)s, host) %(table)s
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster_reporter:minority_view:info',
            expr: |||
              (
                (ovn_raft_cluster_reporter:majority_view:bool == 0)
                  and on (%(cluster)s) (ovn_raft_cluster:majority_view:bool == 1)
              ) + 1
            ||| % $._config.labels,
          },
          {
            // Every view of the clusters whose views disagree (no series where they agree): the
            // one read of the raw views the majority and difference rules below need (views
            // without a cluster ID have no verdict to match: no cluster_id!="" needed).
            record: 'ovn_raft_cluster_reporter_member:disagreeing_view:info',
            expr: |||
              max by (%(cluster)s, server_id, member_id, address, host) (
                ovn_raft_member_info{%(selector)s}
                  and on (%(cluster)s) (ovn_raft_cluster:views_agree:bool == 0)
              )
            ||| % $._config.labels,
          },
          {
            // What the minority reporters list: the only views that can differ from the
            // majority's, so the three difference rules below read these instead of every view.
            record: 'ovn_raft_cluster_reporter_member:minority_view:info',
            expr: |||
              max by (%(cluster)s, server_id, member_id, address) (
                ovn_raft_cluster_reporter_member:disagreeing_view:info
                  and on (%(cluster)s, server_id) ovn_raft_cluster_reporter:minority_view:info
              )
            ||| % $._config.labels,
          },
          {
            // The majority view where some reporter disagrees with it (none elsewhere): what the
            // majority reporters list. The difference rules below read this, not the whole view.
            record: 'ovn_raft_cluster_member:disputed_majority_view:info',
            expr: |||
              max by (%(cluster)s, member_id, address, host) (
                ovn_raft_cluster_reporter_member:disagreeing_view:info
                  and on (%(cluster)s) ovn_raft_cluster_reporter:minority_view:info
                  unless on (%(cluster)s, server_id) ovn_raft_cluster_reporter:minority_view:info
              )
            ||| % $._config.labels,
          },
          {
            // The majority view's members and addresses: where the views agree, every member
            // any view lists; else what the majority reporters list (views that disagree without
            // a majority: none).
            record: 'ovn_raft_cluster_member:majority_view:info',
            expr: |||
              group by (%(cluster)s, member_id, address, host) (
                %(table)s and on (%(cluster)s) (ovn_raft_cluster:views_agree:bool == 1)
              )
              or
              ovn_raft_cluster_member:disputed_majority_view:info
            ||| % $._config.labels,
          },
          {
            // Each reporter's differences from the majority view (none without a majority):
            // members its view lacks (address: the majority's), one minority reporter slot at
            // a time ...
            record: 'ovn_raft_cluster_reporter_member:missing:info',
            expr: '(\n' + std.join('\nor\n', [
              |||
                (
                  ovn_raft_cluster_member:disputed_majority_view:info
                    * on (%(cluster)s) group_left (server_id)
                  %(slot)s
                )
              ||| % ($._config.labels { slot: slot(k) })
              for k in std.range(1, $._config.minoritySlots)
            ]) + |||
              )
              unless on (%(cluster)s, server_id, member_id) ovn_raft_cluster_reporter_member:minority_view:info
            ||| % $._config.labels,
          },
          {
            // ... members it lists that the majority does not ...
            record: 'ovn_raft_cluster_reporter_member:extra:info',
            expr: |||
              ovn_raft_cluster_reporter_member:minority_view:info
                unless on (%(cluster)s, member_id) ovn_raft_cluster_member:disputed_majority_view:info
            ||| % $._config.labels,
          },
          {
            // ... and members it places at another address than the majority.
            record: 'ovn_raft_cluster_reporter_member:moved:info',
            expr: |||
              (
                ovn_raft_cluster_reporter_member:minority_view:info
                  unless on (%(cluster)s, member_id, address) ovn_raft_cluster_member:disputed_majority_view:info
              )
                * on (%(cluster)s, member_id) group_left (majority_address)
              max by (%(cluster)s, member_id, majority_address) (
                label_replace(
                  ovn_raft_cluster_member:disputed_majority_view:info,
                  "majority_address", "$1", "address", "(.+)"
                )
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster_reporter:view_differences:count',
            expr: |||
              count by (%(cluster)s, server_id) (
                label_replace(ovn_raft_cluster_reporter_member:missing:info, "difference", "missing", "", "")
                or label_replace(ovn_raft_cluster_reporter_member:extra:info, "difference", "extra", "", "")
                or label_replace(ovn_raft_cluster_reporter_member:moved:info, "difference", "moved", "", "")
              )
              or
              (
                ovn_raft_cluster_reporter:majority_view:bool
                  and on (%(cluster)s) (ovn_raft_cluster:majority_view:bool == 1)
              ) * 0
            ||| % $._config.labels,
          },
          {
            // The reporters in the leader role, one series each: the leader's word, which the
            // quorum and liveness rules read. A member in failure mode (an I/O error) keeps the
            // role it had, frozen, while the others elect a new leader: not a claim.
            record: 'ovn_raft_instance:server_info:leader',
            expr: |||
              max by (%(member)s, cluster_id, server_id) (
                ovn_raft_instance:server_info:max
                  and on (%(member)s) (ovn_raft_role{%(selector)s, role="leader"} == 1)
                  %(unlessFailed)s
              )
            ||| % $._config.labels,
          },
          {
            // Reporters in the leader role (OVNRaftMultipleLeaders); the leader's own word.
            record: 'ovn_raft_cluster:leader_claims:count',
            expr: |||
              count by (%(cluster)s) (ovn_raft_instance:server_info:leader)
              or
              ovn_raft_cluster:reporters:count * 0
            ||| % $._config.labels,
          },
          {
            // The reporters of the clusters where none is in the leader role: only there do the
            // quorum and liveness rules fall back on the other members' word.
            record: 'ovn_raft_instance:server_info:leaderless',
            expr: |||
              max by (%(member)s, cluster_id, server_id) (ovn_raft_instance:server_info:max)
                unless on (%(cluster)s) ovn_raft_instance:server_info:leader
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:has_leader:max',
            expr: |||
              max by (%(cluster)s) (
                ovn_raft_has_leader{%(selector)s} * on (%(member)s) group_left (cluster_id) ovn_raft_instance:server_info:max
              )
            ||| % $._config.labels,
          },
          {
            // The leaders the members follow; a failed member's frozen word does not count.
            record: 'ovn_raft_cluster:leader_ids:count',
            expr: |||
              count by (%(cluster)s) (
                count by (%(cluster)s, leader_id) (
                  (ovn_raft_leader_info{%(selector)s} %(unlessFailed)s)
                    * on (%(member)s) group_left (cluster_id) ovn_raft_instance:server_info:max
                )
              )
            ||| % $._config.labels,
          },
          {
            // The leaders the members know, claimed or followed: a leader whose exporter is down
            // still counts, because its followers name it.
            record: 'ovn_raft_cluster:leaders:count',
            expr: "ovn_raft_cluster:leader_ids:count",
          },
          {
            record: 'ovn_raft_cluster:term:max',
            expr: |||
              max by (%(cluster)s) (
                ovn_raft_term{%(selector)s} * on (%(member)s) group_left (cluster_id) ovn_raft_instance:server_info:max
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:term:spread',
            expr: |||
              ovn_raft_cluster:term:max
              - min by (%(cluster)s) (
                ovn_raft_term{%(selector)s} * on (%(member)s) group_left (cluster_id) ovn_raft_instance:server_info:max
              )
            ||| % $._config.labels,
          },
          {
            // The term of the members that know a leader. A cut-off member raises its own term
            // with every election it starts; this rises only when the majority elects a leader.
            record: 'ovn_raft_cluster:leader_term:max',
            expr: |||
              max by (%(cluster)s) (
                ovn_raft_term{%(selector)s} * on (%(member)s) group_left (cluster_id) ovn_raft_instance:server_info:max
                  and on (%(member)s) (ovn_raft_has_leader{%(selector)s} == 1)
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:connected_members:count',
            expr: |||
              sum by (%(cluster)s) (
                ovn_raft_connected{%(selector)s} * on (%(member)s) group_left (cluster_id) ovn_raft_instance:server_info:max
              )
            ||| % $._config.labels,
          },
          {
            // The reporters whose quorum size counts where no leader reports: those of the majority
            // view, or all of them without a majority (sparse: none while a leader reports). The
            // minority reporters are those to leave out: that rule has series only where a
            // majority view exists, so it needs no test of the majority here.
            record: 'ovn_raft_instance:server_info:leaderless_voice',
            expr: |||
              ovn_raft_instance:server_info:leaderless
                unless on (%(cluster)s, server_id) ovn_raft_cluster_reporter:minority_view:info
            ||| % $._config.labels,
          },
          {
            // The quorum of the view the cluster acts on: the leader's; without a leader's report, the
            // majority view's; else the largest. A stale ID in one lagging follower's view does not
            // raise it. One read of the raw quorum sizes: the leader and the voices never share a
            // cluster.
            record: 'ovn_raft_cluster:quorum:size',
            expr: |||
              max by (%(cluster)s) (
                ovn_raft_quorum_size{%(selector)s}
                  * on (%(member)s) group_left (cluster_id)
                (ovn_raft_instance:server_info:leader or ovn_raft_instance:server_info:leaderless_voice)
              )
            ||| % $._config.labels,
          },
          {
            // The reporters of leaderless clusters in contact with a majority (their _Server says
            // so): where no leader reports, they vouch for themselves and their peers.
            record: 'ovn_raft_instance:server_info:leaderless_connected',
            expr: |||
              ovn_raft_instance:server_info:leaderless and on (%(member)s) (ovn_raft_connected{%(selector)s} == 1)
            ||| % $._config.labels,
          },
          {
            // A member is alive when a living member vouches for it, never because its own
            // exporter answers or is silent. Where a leader reports, its word decides: itself
            // and the members it heard from within two election timers (a firewalled peer's
            // TCP connection can look established for long). Without a leader's report: the
            // members in contact with a majority (their _Server says so) and the peers they
            // hold established Raft connections with. With no contact with a majority
            // anywhere (quorum lost), each reporting member vouches for itself, so a lone
            // survivor counts 1. Members nobody vouches for have no series: unknown, not dead.
            record: 'ovn_raft_cluster_member:alive:bool',
            expr: |||
              max by (%(cluster)s, member_id) (
                label_replace(ovn_raft_instance:server_info:leader, "member_id", "$1", "server_id", "(.+)")
              )
              or
              group by (%(cluster)s, member_id) (
                (
                  ovn_raft_member_last_message_age_seconds{%(selector)s}
                    * on (%(member)s) group_left (cluster_id)
                  ovn_raft_instance:server_info:leader
                )
                  < on (%(member)s) group_left
                2 * ovn_raft_election_timer_seconds{%(selector)s}
              )
              or
              (
                max by (%(cluster)s, member_id) (
                  label_replace(ovn_raft_instance:server_info:leaderless_connected, "member_id", "$1", "server_id", "(.+)")
                )
                or
                max by (%(cluster)s, member_id) (
                  (ovn_raft_member_connected{%(selector)s} == 1)
                    * on (%(member)s) group_left (cluster_id)
                  ovn_raft_instance:server_info:leaderless_connected
                )
              )
              or
              max by (%(cluster)s, member_id) (
                label_replace(
                  ovn_raft_instance:server_info:max unless on (%(cluster)s) (ovn_raft_cluster:connected_members:count > 0),
                  "member_id", "$1", "server_id", "(.+)"
                )
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:live_members:count',
            expr: "count by (%(cluster)s) (ovn_raft_cluster_member:alive:bool)" % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:failure_tolerance:count',
            expr: "ovn_raft_cluster:live_members:count - ovn_raft_cluster:quorum:size" % $._config.labels,
          },
          {
            // Hosts held by a live member ID, and how many.
            record: 'ovn_raft_cluster_host:live_members:count',
            expr: |||
              count by (%(cluster)s, host) (
                max by (%(cluster)s, host, member_id) (%(table)s)
                  and on (%(cluster)s, member_id) ovn_raft_cluster_member:alive:bool
              )
            ||| % $._config.labels,
          },
          {
            // The identity each exporter last reported per database, kept (by reading this rule's own
            // last value) while the exporter cannot be scraped, and dropped with its target: what ties
            // a failed scrape to the member ID and host it watches. The current identities are the
            // ones recorded at the top of this group (the same labels), not a second raw read. Also
            // dropped when the exporter reads its database as standalone or relay (a deployment
            // rebuilt without Raft): that database has no member left to tie to.
            record: 'ovn_raft_instance:server_info:last',
            expr: |||
              ovn_raft_instance:server_info:max
              or on (%(member)s)
              (
                ovn_raft_instance:server_info:last and on (%(deployment)s, instance) up{%(exporterSelector)s}
                  unless on (%(member)s) %(notClustered)s
              )
            ||| % $._config.labels,
          },
          {
            // Members on the host of an exporter that could not be scraped at any time within
            // exporterDownFor: OVNRaftExporterDown explains their silence (the old and the new ID
            // alike when the pod restarted). Not while the exporter restarts and answers between
            // (a crash-looping sidecar): the member's own alerts keep naming it.
            record: 'ovn_raft_cluster_member:exporter_down:bool',
            expr: |||
              group by (%(cluster)s, member_id) (
                %(table)s
                  and on (%(deploymentDb)s, cluster_id, host)
                (
                  ovn_raft_instance:server_info:last
                    and on (%(deployment)s, instance) (max_over_time(up{%(exporterSelector)s}[%(exporterDownRange)s]) == 0)
                )
              )
            ||| % $._config.labels,
          },
          {
            // How suspect each member is of being stale, in tiers: its host is not expected
            // (1000), it does not report itself (100), its host is claimed by another ID (50),
            // then 10 minus the reporters naming it (fewer: more suspect).
            record: 'ovn_raft_cluster_member:suspect:score',
            // One sum over the terms each member has (a term it lacks adds nothing).
            expr: |||
              sum by (%(cluster)s, member_id) (
                label_replace(10 - clamp_max(ovn_raft_cluster_member:named_by:count, 10), "term", "named", "", "")
                or
                label_replace(ovn_raft_cluster_member:silent:named_by * 0 + 100, "term", "silent", "", "")
                or
                %(hostTerms)s
              )
            ||| % ($._config.labels { hostTerms: hostTerms('  ') }),
          },
          {
            // Silent members with a sign of staleness: their host is unexpected or claimed by
            // another ID, or the cluster is larger than expected; valued by their score.
            record: 'ovn_raft_cluster_member:stale_candidate:score',
            expr: staleCandidates,
          },
          {
            // The clusters' size against the expected one, where there are stale candidates (no
            // series elsewhere): what the ranking below reads, a handful of series per fleet.
            record: 'ovn_raft_cluster_with_candidates:members_vs_expected:diff',
            expr: |||
              ovn_raft_cluster:members_vs_expected:diff
                and on (%(cluster)s) ovn_raft_cluster_member:stale_candidate:score
            ||| % $._config.labels,
          },
          {
            // The stale suspects, ranked by score: every candidate; when the cluster is 1 to
            // minoritySlots larger than expected, only those that beat the next candidate, at most as
            // many as the excess.
            record: 'ovn_raft_cluster_member:stale_suspect:score',
            expr: std.join('\nor\n', [
              candidatesOfExcess(e)
              for e in std.range(1, $._config.minoritySlots)
            ] + [
              |||
                ovn_raft_cluster_member:stale_candidate:score
                unless on (%(cluster)s)
                (
                  ovn_raft_cluster_with_candidates:members_vs_expected:diff >= 1
                    and ovn_raft_cluster_with_candidates:members_vs_expected:diff <= %(slots)d
                )
              ||| % ($._config.labels { slots: $._config.minoritySlots }),
            ]),
          },
          {
            // Candidates the evidence cannot tell apart: tied at the excess-th place, so that naming
            // them would name more IDs than the excess. None is named a suspect; the operator decides.
            record: 'ovn_raft_cluster_member:stale_undecided:score',
            expr: std.join('\nor\n', [
              |||
                (
                  ovn_raft_cluster_member:stale_candidate:score
                    >= on (%(cluster)s) group_left
                  min by (%(cluster)s) (topk by (%(cluster)s) (%(next)d, ovn_raft_cluster_member:stale_candidate:score))
                )
                and on (%(cluster)s) (count by (%(cluster)s) (ovn_raft_cluster_member:stale_candidate:score) > %(e)d)
                and on (%(cluster)s) (ovn_raft_cluster_with_candidates:members_vs_expected:diff == %(e)d)
                unless on (%(cluster)s, member_id) ovn_raft_cluster_member:stale_suspect:score
                unless on (%(cluster)s) (count by (%(cluster)s) (ovn_raft_cluster_member:stale_suspect:score) >= %(e)d)
              ||| % ($._config.labels { e: e, next: e + 1 })
              for e in std.range(1, $._config.minoritySlots)
            ]),
          },
          {
            // Kept from 0.1 (OVNRaftStaleMember): the suspects with their host and address,
            // valued by how many reporters name them.
            record: 'ovn_raft_cluster_member:stale_suspect:named_by',
            expr: |||
              (
                max by (%(cluster)s, member_id, host, address) (%(table)s) * 0
                  + on (%(cluster)s, member_id) group_left
                ovn_raft_cluster_member:silent:named_by
              )
              and on (%(cluster)s, member_id) ovn_raft_cluster_member:stale_suspect:score
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster_member:replication_lag:entries',
            expr: |||
              max by (%(cluster)s, member_id) (
                (
                  ovn_raft_log_next_index{%(selector)s} - 1
                    - on (%(member)s) group_right
                  ovn_raft_member_match_index{%(selector)s}
                )
                  * on (%(member)s) group_left (cluster_id)
                ovn_raft_instance:server_info:leader
              )
            ||| % $._config.labels,
          },
          {
            // The members the leader does not hear, by its word: its last message from them is
            // older than two election timers (`not_heard`), or they lag behind its log and their
            // match index has not moved for two minutes (`not_catching_up`). One reason each:
            // `or on` the member keeps a not_heard member's only entry, so the leader's last
            // messages are read once.
            record: 'ovn_raft_cluster_member:leader_unheard:info',
            expr: |||
              label_replace(
                group by (%(cluster)s, member_id) (
                  (
                    ovn_raft_member_last_message_age_seconds{%(selector)s}
                      * on (%(member)s) group_left (cluster_id)
                    ovn_raft_instance:server_info:leader
                  )
                    >= on (%(member)s) group_left
                  2 * ovn_raft_election_timer_seconds{%(selector)s}
                ),
                "reason", "not_heard", "", ""
              )
              or on (%(cluster)s, member_id)
              label_replace(
                group by (%(cluster)s, member_id) (ovn_raft_cluster_member:replication_lag:entries > 0)
                  unless on (%(cluster)s, member_id)
                max by (%(cluster)s, member_id) (
                  changes(ovn_raft_member_match_index{%(selector)s}[%(notCatchingUpRange)s])
                    * on (%(member)s) group_left (cluster_id)
                  ovn_raft_instance:server_info:leader
                    > 0
                ),
                "reason", "not_catching_up", "", ""
              )
            ||| % $._config.labels,
          },
          {
            // Members that run and call themselves cluster members (their own exporter reads
            // `Status: cluster member`) while the leader does not hear them, with the leader's
            // reason (OVNRaftMemberUnheard). A full or read-only disk, a one-way cut or a stuck
            // process look like this; the member's own status stays healthy. Empty while the
            // leader hears every member. Left out: a member that (re)started, as its exporter saw
            // it, after the leader last heard from it, for memberRejoinSeconds: it is rejoining,
            // and the leader's word may come from a scrape taken before it was back. Its start is
            // taken onto Prometheus' clock (less its exporter's clock_skew): an exporter whose
            // clock is set wrong makes no member look just started.
            record: 'ovn_raft_cluster_member:unheard:info',
            expr: |||
              max by (%(cluster)s, server_id, host, reason) (
                (
                  ovn_raft_instance:server_info:max
                    and on (%(member)s) (ovn_raft_status{%(selector)s, status="cluster_member"} == 1)
                )
                  * on (%(cluster)s, server_id) group_left (reason)
                label_replace(ovn_raft_cluster_member:leader_unheard:info, "server_id", "$1", "member_id", "(.+)")
              )
                unless on (%(cluster)s, server_id)
              (
                label_replace(
                  max by (%(cluster)s, member_id) (
                    (
                      timestamp(ovn_raft_member_last_message_age_seconds{%(selector)s})
                        - ovn_raft_member_last_message_age_seconds{%(selector)s}
                    )
                      * on (%(member)s) group_left (cluster_id)
                    ovn_raft_instance:server_info:leader
                  ),
                  "server_id", "$1", "member_id", "(.+)"
                )
                  < on (%(cluster)s, server_id) group_left
                max by (%(cluster)s, server_id) (
                  (
                    (
                      ovn_raft_ovsdb_server_seen_since_timestamp_seconds{%(selector)s}
                        - on (%(exporter)s) group_left
                      ovn_raft_exporter:clock_skew:seconds
                    )
                      > time() - %(memberRejoinSeconds)d
                  )
                    * on (%(member)s) group_left (cluster_id, server_id)
                  ovn_raft_instance:server_info:max
                )
              )
            ||| % $._config.labels,
          },
          {
            // How far each follower trails the leader's log, as the median over slowMemberWindow
            // of the leader's word (replication_lag:entries): a restarted member's catching up or
            // a new leader's first guesses last a scrape or two and do not move a median. The
            // leader itself is left out: it trails nobody.
            record: 'ovn_raft_cluster_member:follower_lag:median',
            expr: |||
              quantile_over_time(0.5, ovn_raft_cluster_member:replication_lag:entries[%(slowMemberRange)s])
                unless on (%(cluster)s, member_id)
              label_replace(ovn_raft_instance:server_info:leader, "member_id", "$1", "server_id", "(.+)")
            ||| % $._config.labels,
          },
          {
            // How many entries the leader has committed that its own log does not hold yet, by
            // its word: its commit index (the log's end less the uncommitted entries) less its
            // own match index (its own disk's progress), 0 when its own log is ahead. A leader
            // writes an entry to its own log before it sends it, and its followers acknowledge
            // only after a round trip and their own write: a healthy leader's own log is never
            // behind the majority's for long. One whose disk syncs slowly or hangs commits on
            // its followers' word while its own log trails. One series per leader.
            record: 'ovn_raft_cluster_member:leader_commit_lag:entries',
            expr: |||
              clamp_min(
                ovn_raft_cluster_member:replication_lag:entries
                  - on (%(cluster)s, member_id)
                label_replace(
                  max by (%(cluster)s, server_id) (
                    ovn_raft_log_entries_uncommitted{%(selector)s}
                      * on (%(member)s) group_left (cluster_id, server_id)
                    ovn_raft_instance:server_info:leader
                  ),
                  "member_id", "$1", "server_id", "(.+)"
                ),
                0
              )
            ||| % $._config.labels,
          },
          {
            // Slow leaders, valued by their median commit lag over slowMemberWindow: the leader
            // whose own log trails its commit index by at least slowMemberLagEntries at most reads
            // (OVNRaftLeaderSlow). The majority of its followers holds entries its own disk has
            // not written: its disk syncs slower than a follower's write and a round trip. Kept
            // while its own log stops altogether (OVNRaftMemberUnheard, not_catching_up, names
            // that too): the leader stays named as it gets worse.
            record: 'ovn_raft_cluster_member:slow_leader:lag_entries',
            expr: |||
              quantile_over_time(0.5, ovn_raft_cluster_member:leader_commit_lag:entries[%(slowMemberRange)s]) >= %(slowMemberLagEntries)s
                and on (%(cluster)s, member_id)
              label_replace(ovn_raft_instance:server_info:leader, "member_id", "$1", "server_id", "(.+)")
            ||| % $._config.labels,
          },
          {
            // Slow members, valued by their median lag: live followers that trail the leader by
            // at least slowMemberLagEntries and by more than slowMemberPeerFactor times the
            // fastest follower of their cluster (OVNRaftMemberSlow). Under a write load every
            // follower trails a little, alike; a member whose disk syncs slowly, whose CPU is
            // starved or whose path to the leader is slow trails more, while it still answers.
            // A lone follower has no peer to compare with; a member the leader no longer hears
            // is OVNRaftMemberUnheard's, and stays out for a window after it is heard again (a
            // killed or stuck member comes back far behind, and its median reads that gap).
            record: 'ovn_raft_cluster_member:slow:lag_entries',
            expr: |||
              (
                ovn_raft_cluster_member:follower_lag:median >= %(slowMemberLagEntries)s
                  > on (%(cluster)s) group_left
                %(slowMemberPeerFactor)s * min by (%(cluster)s) (ovn_raft_cluster_member:follower_lag:median)
              )
                and on (%(cluster)s, member_id) ovn_raft_cluster_member:alive:bool
                unless on (%(cluster)s, member_id)
              max_over_time(ovn_raft_cluster_member:leader_unheard:info[%(slowMemberRange)s])
            ||| % $._config.labels,
          },
          {
            // When each member last started an election on a leadership transfer (a leader hands
            // over leadership before it writes a snapshot, or when it shuts down or leaves): its
            // exporter's timestamp taken onto Prometheus' clock (less its clock_skew: "ms ago" as
            // the exporter read it, so that an exporter restarted with its clock set wrong, or a
            // step of its clock, is no new election), kept at the value first recorded for that
            // election while new
            // readings stay within 30 s of it (the timestamp is computed from "ms ago" at each
            // read and moves with the read's latency), also across a failed scrape or an
            // exporter restart within leadershipTransfersWindow, so that changes() counts
            // transfers, not reads. No series while a member's last election was by timeout.
            record: 'ovn_raft_cluster_member:leadership_transfer_started:timestamp_seconds',
            expr: |||
              (
                last_over_time(ovn_raft_cluster_member:leadership_transfer_started:timestamp_seconds[%(leadershipTransfersRange)s])
                  and on (%(cluster)s, server_id)
                abs(
                  max by (%(cluster)s, server_id, host) (
                    (
                      ovn_raft_last_election_started_timestamp_seconds{%(selector)s, reason="leadership_transfer"}
                        - on (%(exporter)s) group_left
                      ovn_raft_exporter:clock_skew:seconds
                    )
                      * on (%(member)s) group_left (cluster_id, server_id, host)
                    ovn_raft_instance:server_info:max
                  )
                    - on (%(cluster)s, server_id)
                  last_over_time(ovn_raft_cluster_member:leadership_transfer_started:timestamp_seconds[%(leadershipTransfersRange)s])
                ) < 30
              )
              or
              max by (%(cluster)s, server_id, host) (
                (
                  ovn_raft_last_election_started_timestamp_seconds{%(selector)s, reason="leadership_transfer"}
                    - on (%(exporter)s) group_left
                  ovn_raft_exporter:clock_skew:seconds
                )
                  * on (%(member)s) group_left (cluster_id, server_id, host)
                ovn_raft_instance:server_info:max
              )
            ||| % $._config.labels,
          },
          {
            // Leadership transfers each member received within leadershipTransfersWindow: the
            // changes of its transfer timestamp, and the first one when it started within the
            // window (OVNRaftFrequentLeadershipTransfers).
            record: 'ovn_raft_cluster_member:leadership_transfers:count',
            expr: |||
              changes(ovn_raft_cluster_member:leadership_transfer_started:timestamp_seconds[%(leadershipTransfersRange)s])
                + (
                  min_over_time(ovn_raft_cluster_member:leadership_transfer_started:timestamp_seconds[%(leadershipTransfersRange)s])
                    > bool (time() - %(leadershipTransfersWindowSeconds)s)
                )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:log_entries_uncommitted:max',
            expr: |||
              max by (%(cluster)s) (
                ovn_raft_log_entries_uncommitted{%(selector)s}
                  * on (%(member)s) group_left (cluster_id)
                ovn_raft_instance:server_info:max
              )
            ||| % $._config.labels,
          },
          {
            // Members whose storage failed, with why (OVNRaftMemberFailed). Empty while none has.
            record: 'ovn_raft_cluster_member:storage_failed:info',
            expr: |||
              max by (%(cluster)s, server_id, host, reason) (
                ovn_raft_instance:storage_failed:info
                  * on (%(member)s) group_left (cluster_id, server_id, host)
                ovn_raft_instance:server_info:max
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:log_entries_unapplied:max',
            expr: |||
              max by (%(cluster)s) (
                ovn_raft_log_entries_unapplied{%(selector)s}
                  * on (%(member)s) group_left (cluster_id)
                ovn_raft_instance:server_info:max
              )
            ||| % $._config.labels,
          },
          {
            // Relay databases (an ovsdb-server that serves a copy of another server's database,
            // `relay:DB:REMOTE`) per deployment and database, by their exporters' word: no Raft,
            // only whether each is in contact with its relay source. No series where no relay is.
            record: 'ovn_raft_db:relays:count',
            expr: 'count by (%(deploymentDb)s) (ovn_raft_relay_connected{%(selector)s})' % $._config.labels,
          },
          {
            // Of those, the relays in contact with their source (OVNRaftAllRelaysDisconnected at 0:
            // the clients that read from relays see no updates).
            record: 'ovn_raft_db:relays_connected:count',
            expr: 'sum by (%(deploymentDb)s) (ovn_raft_relay_connected{%(selector)s})' % $._config.labels,
          },
        ],
      },
      {
        // Facts that change slowly or are read over long windows (releases, the log's
        // compaction, the database index's history), at a longer interval: their alerts wait
        // minutes or hours, and the consensus group's interval would only multiply their reads.
        name: 'ovn-raft-slow.rules',
        interval: $._config.slowRuleGroupInterval,
        rules: [
          {
            // Which Open vSwitch release each member runs (its ovsdb-server's `version`).
            record: 'ovn_raft_cluster_member:ovs_version:info',
            expr: |||
              max by (%(cluster)s, server_id, host, version) (
                ovn_raft_ovsdb_server_build_info{%(selector)s}
                  * on (%(member)s) group_left (cluster_id, server_id, host)
                ovn_raft_instance:server_info:max
              )
            ||| % $._config.labels,
          },
          {
            // More than 1 while an upgrade rolls through the members (OVNRaftMixedReleases).
            record: 'ovn_raft_cluster:ovs_versions:count',
            expr: |||
              count by (%(cluster)s) (
                count by (%(cluster)s, version) (ovn_raft_cluster_member:ovs_version:info)
              )
            ||| % $._config.labels,
          },
          {
            // Members on an Open vSwitch release with known Raft defects, with the release of
            // its series that fixes them (OVNRaftReleaseWithKnownRaftDefects). By version only:
            // a distribution's backported fixes do not show.
            record: 'ovn_raft_cluster_member:raft_defect_release:info',
            expr: std.join('\n  or\n', [
              'label_replace(ovn_raft_cluster_member:ovs_version:info{version=~`(%s)([^0-9].*)?`}, "fixed_in", "%s", "", "")'
              % [r.versions, r.fixed_in]
              for r in $._config.raftDefectReleases
            ]) + '\n',
          },
          {
            // Members whose log has held entries for longer without compaction than
            // ovsdb-server ever lets it (logCompactionOverdueSeconds), with how long, as their
            // exporter saw it (OVNRaftLogNotCompacted; the exporter restarts the clock while the
            // log is empty), by the exporter's own clock as the unheard members' start above.
            // Empty while every log compacts in time.
            record: 'ovn_raft_cluster_member:log_compaction_overdue:seconds',
            expr: |||
              max by (%(cluster)s, server_id, host) (
                (
                  time()
                    - (
                      ovn_raft_log_uncompacted_since_timestamp_seconds{%(selector)s}
                        - on (%(exporter)s) group_left
                      ovn_raft_exporter:clock_skew:seconds
                    )
                    > %(logCompactionOverdueSeconds)s
                )
                  * on (%(member)s) group_left (cluster_id, server_id, host)
                ovn_raft_instance:server_info:max
              )
            ||| % $._config.labels,
          },
          {
            // The highest applied index of each cluster (_Server's index: what clients compare
            // with the highest index they have read): the highest a client of it can have read.
            // Per cluster, not per member: a member re-created with a new database and catching
            // up is no step back, and a restore takes the whole cluster back.
            record: 'ovn_raft_cluster:database_index:max',
            expr: |||
              max by (%(cluster)s) (
                ovn_raft_database_index{%(selector)s}
                  * on (%(member)s) group_left (cluster_id)
                ovn_raft_instance:server_info:max
              )
            ||| % $._config.labels,
          },
          {
            // How far each cluster's highest index is below its own highest within the window,
            // when by more than recreatedIndexEntries: the index never goes back in service
            // (compaction keeps it, a restart reads it back), a restore of older files does, and
            // its clients refuse every member. Only while a majority of the cluster's exporters
            // (server_info:last) is read: a majority holds every committed entry, whereas a
            // minority cut off, or a member catching up, read alone is merely behind.
            record: 'ovn_raft_cluster:database_index_regression:entries',
            expr: |||
              (
                max_over_time(ovn_raft_cluster:database_index:max[%(recreatedClusterRange)s])
                  - ovn_raft_cluster:database_index:max
                > %(recreatedIndexEntries)s
              )
                and on (%(cluster)s)
              (
                count by (%(cluster)s) (ovn_raft_instance:server_info:max) * 2
                  > on (%(cluster)s)
                count by (%(cluster)s) (ovn_raft_instance:server_info:last)
              )
            ||| % $._config.labels,
          },
          {
            // A database rebuilt under a new cluster ID: a cluster ID read within the window
            // (previous_cluster_id) that no member reports any more, while the deployment's
            // members all report one other (two at once: OVNRaftClusterIDSplit), and the gone
            // cluster's highest index is above the new one's by more than recreatedIndexEntries
            // (the value): its clients refuse the new cluster. Not a split-off member's fresh
            // cluster given up for the majority's: the majority's index is the higher. The
            // identities last reported count, so that a cluster whose exporters cannot be
            // scraped is not gone.
            record: 'ovn_raft_cluster:previous_cluster_ahead:entries',
            expr: |||
              (
                max by (%(deploymentDb)s, previous_cluster_id) (
                  label_replace(
                    max_over_time(ovn_raft_cluster:database_index:max[%(recreatedClusterRange)s])
                      unless on (%(cluster)s) ovn_raft_instance:server_info:last,
                    "previous_cluster_id", "$1", "cluster_id", "(.+)"
                  )
                )
                - on (%(deploymentDb)s) group_left (cluster_id)
                (
                  ovn_raft_cluster:database_index:max
                    and on (%(deploymentDb)s)
                  (count by (%(deploymentDb)s) (group by (%(cluster)s) (ovn_raft_instance:server_info:last)) == 1)
                )
              )
              > %(recreatedIndexEntries)s
            ||| % $._config.labels,
          },
        ],
      },
    ],
  },
}
