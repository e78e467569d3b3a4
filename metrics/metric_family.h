#pragma once

// prometheus-cpp is used for its data model only: MetricFamily, ClientMetric and MetricType.
// Nothing is registered with a prometheus::Registry or served by prometheus-cpp: every scrape
// builds fresh families from one snapshot (family_builder.h, raft_metrics.h) and
// text_exposition.h writes them.

#include <prometheus/metric_family.h>
