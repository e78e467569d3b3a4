// Every generated file of the repository, keyed by path (scripts/generate-mixin.sh writes them).
local mixin = import 'mixin.libsonnet';
{
  'alerts/ovn-raft-rules.yaml': mixin.prometheusRules,
  'alerts/ovn-raft-alerts.yaml': mixin.prometheusAlerts,
} + {
  ['dashboards/' + name]: mixin.grafanaDashboards[name]
  for name in std.objectFields(mixin.grafanaDashboards)
}
