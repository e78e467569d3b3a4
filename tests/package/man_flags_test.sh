#!/usr/bin/env bash
# The manual page documents every flag that --help prints, and no other: both lists of
# --flags, compared. PROGRAM is a built or installed program; PAGE its page (roff), or, when
# not given, what the program's hidden --help-man prints.
#
#   tests/package/man_flags_test.sh PROGRAM [PAGE]
set -euo pipefail
program=${1:?usage: man_flags_test.sh PROGRAM [PAGE]}
page=${2:-}
# Read once, whole: a reader that stops early (grep -q) would end the program with SIGPIPE.
help=$("$program" --help)
help_flags=$(grep -oE '^  --[a-z0-9.-]+' <<<"$help" | sed 's/^ *--//' | sort -u)
# The formerly/--help line: "  --help, --version" gives help; add version from the same line.
if grep -q '^  --help, --version' <<<"$help"; then help_flags=$(printf '%s\nversion\n' "$help_flags" | sort -u); fi
if [ -n "$page" ]; then
  case "$page" in *.gz) roff=$(zcat "$page") ;; *) roff=$(cat "$page") ;; esac
else
  roff=$("$program" --help-man)
fi
# Each flag heads a .TP item: \fB\-\-name\fR
man_flags=$(awk 'prev == ".TP" { print } { prev = $0 }' <<<"$roff" |
  sed -nE 's/^\\fB\\-\\-((\\-|[a-z0-9.])+)\\fR.*/\1/p' | sed 's/\\-/-/g' | sort -u)
[ -n "$help_flags" ] || { echo "no flag in $program --help"; exit 1; }
if [ "$help_flags" != "$man_flags" ]; then
  echo "$program: --help and its manual page list different flags (< --help, > page):"
  diff <(echo "$help_flags") <(echo "$man_flags") || true
  exit 1
fi
echo "$program: the manual page documents the $(wc -l <<<"$help_flags") flags of --help"
