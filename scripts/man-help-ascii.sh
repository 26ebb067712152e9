#!/bin/sh
# For scripts/generate-man.sh only: runs quire ($QUIRE_MAN_BINARY) with the arguments given and
# writes every character outside ASCII of what it prints as @U2026@ (its code point in hex).
# swift-argument-parser's generate-manual keeps only ASCII characters; generate-man.sh turns these
# markers into groff's \[u2026] afterwards, so "…" and "×" in the help reach the man pages.
set -e
: "${QUIRE_MAN_BINARY:?set QUIRE_MAN_BINARY to the quire binary}"
"$QUIRE_MAN_BINARY" "$@" > "${TMPDIR:-/tmp}/quire-man-help.$$"
perl -CSD -pe 's/([^\x00-\x7f])/sprintf("\@U%04X\@", ord($1))/ge' "${TMPDIR:-/tmp}/quire-man-help.$$"
rm -f "${TMPDIR:-/tmp}/quire-man-help.$$"
