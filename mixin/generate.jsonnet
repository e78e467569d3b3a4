// Every generated file of the repository, keyed by path (scripts/generate-mixin.sh writes them).
local mixin = import 'mixin.libsonnet';
// The rules as one Prometheus watching several Kubernetes clusters runs them (a `cluster`
// target label), for alerts/tests/deployment-labels-test.yaml.
local multiCluster = mixin { _config+:: { deploymentLabels: ['cluster', 'namespace'] } };
{
  'alerts/ovn-raft-rules.yaml': mixin.prometheusRules,
  'alerts/ovn-raft-alerts.yaml': mixin.prometheusAlerts,
  'alerts/tests/multi-cluster/ovn-raft-rules.yaml': multiCluster.prometheusRules,
  'alerts/tests/multi-cluster/ovn-raft-alerts.yaml': multiCluster.prometheusAlerts,
} + {
  ['dashboards/' + name]: mixin.grafanaDashboards[name]
  for name in std.objectFields(mixin.grafanaDashboards)
}
