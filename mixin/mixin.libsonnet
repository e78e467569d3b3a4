// The OVN Raft monitoring mixin: recording rules, alerts and Grafana dashboards.
(import 'config.libsonnet') +
(import 'rules.libsonnet') +
(import 'alerts.libsonnet') +
(import 'dashboards.libsonnet')
