#!/usr/bin/env bash
# A Helm post-renderer that applies this project's kustomize Components to a chart's output:
#   helm upgrade --install kube-ovn kubeovn/kube-ovn ... \
#     --post-renderer deploy/kubernetes/helm-post-renderer.sh \
#     --post-renderer-args kube-ovn [--post-renderer-args kube-ovn/tls]
# Arguments: Component folders under deploy/kubernetes (default: kube-ovn). Reads the rendered
# manifests on stdin, prints them with the sidecar added on stdout. Needs kubectl >= 1.21
# (kustomize Components); set KUBECTL to use another binary.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- kube-ovn
work=$(mktemp -d "$here/.post-render.XXXXXX") # inside the tree: kustomize wants relative paths
trap 'rm -rf "$work"' EXIT
cat >"$work/chart.yaml"
{
  echo "apiVersion: kustomize.config.k8s.io/v1beta1"
  echo "kind: Kustomization"
  echo "resources: [chart.yaml]"
  echo "components:"
  for c in "$@"; do
    [ -f "$here/$c/kustomization.yaml" ] || { echo "helm-post-renderer: no component $c in $here" >&2; exit 2; }
    echo "  - ../$c"
  done
} >"$work/kustomization.yaml"
"${KUBECTL:-kubectl}" kustomize "$work"
