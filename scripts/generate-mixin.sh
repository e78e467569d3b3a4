#!/usr/bin/env bash
# Generates alerts/*.yaml, dashboards/*.json and the Kubernetes objects built from them, from
# the jsonnet mixin in mixin/. With --check, changes nothing and fails when a committed file
# differs from what the mixin generates.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jsonnet -J "$root/mixin" "$root/mixin/generate.jsonnet" |
  /usr/bin/python3 "$root/scripts/write_generated.py" "$root" "$@"
