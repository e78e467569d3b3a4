#!/usr/bin/env bash
# Runs COMMAND and passes only when it exits with STATUS and its output (stdout and stderr)
# matches REGEX (grep -E over the whole output as one text: `.` matches a newline too). ctest's
# PASS_REGULAR_EXPRESSION alone ignores the exit status; a test through this checks both.
#   expect.sh STATUS REGEX COMMAND [ARGS...]       STATUS: N, or !N for any status but N
set -uo pipefail
want=$1 regex=$2
shift 2
out=$("$@" 2>&1)
got=$?
printf '%s\n' "$out"
case $want in
  !*) [ "$got" -ne "${want#!}" ] || { echo "expect: exit status $got, wanted any but ${want#!}"; exit 1; } ;;
  *) [ "$got" -eq "$want" ] || { echo "expect: exit status $got, wanted $want"; exit 1; } ;;
esac
grep -qzE -- "$regex" <<<"$out" || { echo "expect: the output does not match: $regex"; exit 1; }
echo "expect: exit status $got and the output as expected"
