#!/usr/bin/env bash
# Runs a command with ports of a block of its own (scripts/lib.sh claim_ports, the protocol of
# tests/support/ports.h), for a test that runs beside others:
#   ports.sh [VAR=N ...] -- COMMAND [ARGS...]
# exports each VAR as the first of N consecutive ports, and OVN_RAFT_PORT_BLOCK for the rest.
set -euo pipefail
# shellcheck source=../../scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"
claim_ports
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  export "${1%%=*}=$(free_port "${1#*=}")"
  shift
done
[ "${1:-}" = -- ] && shift
exec "$@"
