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
# The entries --help lists under HEADING ("  TERM" lines up to the next heading), and those of
# the page's SECTION (the .TP items after the flags' variables), must be the same.
help_terms() { awk -v h="$1:" '$0 == h { on = 1; next } /^[^ ]/ { on = 0 } on && /^  [^ ]/ { sub(/^  /, ""); print }' <<<"$help" | sort; }
page_terms() {
  awk -v s="$1" '/^\.SH / { on = ($0 == ".SH " s) } on && prev == ".TP" { print } { prev = $0 }' <<<"$roff" |
    sed -E 's/^\\fB(.*)\\fR$/\1/; s/\\-/-/g' | sort
}
sections=0
for pair in "Exit status|\"EXIT STATUS\"" "Signals|SIGNALS" "Other environment variables|ENVIRONMENT"; do
  heading=${pair%%|*} section=${pair#*|}
  want=$(help_terms "$heading")
  [ -n "$want" ] || continue
  got=$(page_terms "$section")
  if [ "$want" != "$got" ]; then
    echo "$program: --help's \"$heading\" and the page's $section differ (< --help, > page):"
    diff <(echo "$want") <(echo "$got") || true
    exit 1
  fi
  sections=$((sections + 1))
done
echo "$program: the manual page documents the $(wc -l <<<"$help_flags") flags of --help and its $sections other lists"
