// Recording rules: the cross-member consensus of OVN Raft clusters (see README).
// Expressions are templates over _config (mixin/config.libsonnet).
{
  prometheusRules+:: {
    groups+: [
      {
        name: 'ovn-raft-consensus.rules',
        rules: [
          {
            record: 'ovn_raft_cluster:reporters:count',
            expr: "count by (%(cluster)s) (ovn_raft_view_info{cluster_id!=\"\"})" % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster_view:reporters:count',
            expr: "count by (%(cluster)s, view_hash) (ovn_raft_view_info{cluster_id!=\"\"})" % $._config.labels,
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
            record: 'ovn_raft_cluster_reporter:majority_view:bool',
            expr: |||
              max by (%(cluster)s, server_id) (
                (
                  ovn_raft_view_info{cluster_id!=""}
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
            record: 'ovn_raft_cluster_member:named_by:count',
            expr: "count by (%(cluster)s, member_id) (ovn_raft_member_info{cluster_id!=\"\"})" % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:members_union:count',
            expr: "count by (%(cluster)s) (ovn_raft_cluster_member:named_by:count)" % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster_member:silent:named_by',
            expr: |||
              ovn_raft_cluster_member:named_by:count
                unless on (%(cluster)s, member_id)
              label_replace(ovn_raft_view_info{cluster_id!=""}, "member_id", "$1", "server_id", "(.+)")
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster_host:member_ids:count',
            expr: |||
              count by (%(cluster)s, host) (
                count by (%(cluster)s, host, member_id) (ovn_raft_member_info{cluster_id!=""})
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
                count by (%(cluster)s, member_id, address) (ovn_raft_member_info{cluster_id!=""})
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:expected_members:count',
            expr: |||
              max by (%(cluster)s) (
                ovn_raft_expected_members
                  * on (%(member)s) group_left (cluster_id)
                ovn_raft_server_info{cluster_id!=""}
              )
              or
              max by (%(cluster)s) (
                ovn_raft_view_info{cluster_id!=""} * 0
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
            record: 'ovn_raft_cluster_member:stale_suspect:named_by',
            expr: |||
              (
                max by (%(cluster)s, member_id, host, address) (ovn_raft_member_info{cluster_id!=""})
                  * on (%(cluster)s, member_id) group_left
                ovn_raft_cluster_member:silent:named_by
              )
              and
              (
                (
                  max by (%(cluster)s, member_id, host, address) (ovn_raft_member_info{cluster_id!=""})
                    and on (%(cluster)s, host)
                  (ovn_raft_cluster_host:member_ids:count > 1)
                )
                or
                (
                  max by (%(cluster)s, member_id, host, address) (ovn_raft_member_info{cluster_id!=""})
                    and on (%(cluster)s)
                  (ovn_raft_cluster:members_vs_expected:diff > 0)
                )
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:leaders:count',
            expr: |||
              sum by (%(cluster)s) (
                ovn_raft_role{role="leader"}
                  * on (%(member)s) group_left (cluster_id)
                ovn_raft_server_info{cluster_id!=""}
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:has_leader:max',
            expr: |||
              max by (%(cluster)s) (
                ovn_raft_has_leader * on (%(member)s) group_left (cluster_id) ovn_raft_server_info{cluster_id!=""}
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:leader_ids:count',
            expr: |||
              count by (%(cluster)s) (
                count by (%(cluster)s, leader_id) (
                  ovn_raft_leader_info * on (%(member)s) group_left (cluster_id) ovn_raft_server_info{cluster_id!=""}
                )
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:term:max',
            expr: |||
              max by (%(cluster)s) (
                ovn_raft_term * on (%(member)s) group_left (cluster_id) ovn_raft_server_info{cluster_id!=""}
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:term:spread',
            expr: |||
              ovn_raft_cluster:term:max
              - min by (%(cluster)s) (
                ovn_raft_term * on (%(member)s) group_left (cluster_id) ovn_raft_server_info{cluster_id!=""}
              )
            ||| % $._config.labels,
          },
          {
            // The term of the members that know a leader. A cut-off member raises its own term
            // with every election it starts; this rises only when the majority elects a leader.
            record: 'ovn_raft_cluster:leader_term:max',
            expr: |||
              max by (%(cluster)s) (
                ovn_raft_term * on (%(member)s) group_left (cluster_id) ovn_raft_server_info{cluster_id!=""}
                  and on (%(member)s) (ovn_raft_has_leader == 1)
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:connected_members:count',
            expr: |||
              sum by (%(cluster)s) (
                ovn_raft_connected * on (%(member)s) group_left (cluster_id) ovn_raft_server_info{cluster_id!=""}
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:quorum:size',
            expr: |||
              max by (%(cluster)s) (
                ovn_raft_quorum_size * on (%(member)s) group_left (cluster_id) ovn_raft_server_info{cluster_id!=""}
              )
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
                label_replace(
                  ovn_raft_server_info{cluster_id!=""} and on (%(member)s) (ovn_raft_role{role="leader"} == 1),
                  "member_id", "$1", "server_id", "(.+)"
                )
              )
              or
              max by (%(cluster)s, member_id) (
                (
                  ovn_raft_member_last_message_age_seconds
                    < on (%(member)s) group_left
                  2 * ovn_raft_election_timer_seconds
                )
                  * 0 + on (%(member)s) group_left (cluster_id)
                (ovn_raft_server_info{cluster_id!=""} and on (%(member)s) (ovn_raft_role{role="leader"} == 1))
              )
              or
              (
                (
                  max by (%(cluster)s, member_id) (
                    label_replace(
                      ovn_raft_server_info{cluster_id!=""} and on (%(member)s) (ovn_raft_connected == 1),
                      "member_id", "$1", "server_id", "(.+)"
                    )
                  )
                  or
                  max by (%(cluster)s, member_id) (
                    (ovn_raft_member_connected == 1)
                      * on (%(member)s) group_left (cluster_id)
                    (ovn_raft_server_info{cluster_id!=""} and on (%(member)s) (ovn_raft_connected == 1))
                  )
                )
                unless on (%(cluster)s) (ovn_raft_cluster:leaders:count > 0)
              )
              or
              (
                max by (%(cluster)s, member_id) (
                  label_replace(ovn_raft_server_info{cluster_id!=""}, "member_id", "$1", "server_id", "(.+)")
                )
                unless on (%(cluster)s) (ovn_raft_cluster:connected_members:count > 0)
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
            record: 'ovn_raft_cluster_member:replication_lag:entries',
            expr: |||
              max by (%(cluster)s, member_id) (
                (
                  ovn_raft_log_next_index - 1
                    - on (%(member)s) group_right
                  ovn_raft_member_match_index
                )
                  * on (%(member)s) group_left (cluster_id)
                ovn_raft_server_info{cluster_id!=""}
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:log_entries_uncommitted:max',
            expr: |||
              max by (%(cluster)s) (
                ovn_raft_log_entries_uncommitted
                  * on (%(member)s) group_left (cluster_id)
                ovn_raft_server_info{cluster_id!=""}
              )
            ||| % $._config.labels,
          },
          {
            record: 'ovn_raft_cluster:log_entries_unapplied:max',
            expr: |||
              max by (%(cluster)s) (
                ovn_raft_log_entries_unapplied
                  * on (%(member)s) group_left (cluster_id)
                ovn_raft_server_info{cluster_id!=""}
              )
            ||| % $._config.labels,
          },
        ],
      },
    ],
  },
}
