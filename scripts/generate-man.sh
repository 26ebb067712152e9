#!/usr/bin/env bash
# Regenerates man/ from the argument parser with swift-argument-parser's generate-manual plugin.
#   scripts/generate-man.sh          write man/*.1
#   scripts/generate-man.sh --check  fail if man/ differs from what the parser generates
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
date="$(cat man/.date 2>/dev/null || echo 2026-11-22)"
outputs=".build/plugins/GenerateManual/outputs/QuireCLI"
rm -rf "$outputs"
swift package generate-manual --multi-page --date "$date" --configuration debug \
    --authors "Quire developers" >/dev/null
generated="$(mktemp -d)"
trap 'rm -rf "$generated"' EXIT
# generate-manual keeps only the ASCII characters of the help ("…" and "×" vanished from the
# pages): the plugin above built it and quire; run it once more on scripts/man-help-ascii.sh,
# which hands it quire's help with each other character written as @U2026@, turned below into
# "..." for "…", groff's \[mu] for "×" (an x in ASCII) and \[u…] for any other.
tool=""
for candidate in .build/*/debug/generate-manual-tool .build/*/debug/generate-manual; do
    if [[ -x "$candidate" ]]; then tool="$candidate"; break; fi
done
[[ -n "$tool" ]] || { echo "generate-man: the generate-manual tool was not built" >&2; exit 69; }
QUIRE_MAN_BINARY="$(swift build --configuration debug --show-bin-path)/quire"
export QUIRE_MAN_BINARY
rm -rf "$outputs"
mkdir -p "$outputs"
"$tool" "$root/scripts/man-help-ascii.sh" --multi-page --date "$date" --authors "Quire developers" \
    --output-directory "$outputs" >/dev/null
for page in "$outputs"/*.1; do
    name="$(basename "$page")"
    [[ "$name" == "quire.help.1" ]] && continue   # the implicit help command needs no page
    [[ "$name" == quire.__* ]] && continue         # hidden internal subcommands (thumbnail workers)
    # Two fixes to the generated mdoc, for man-db's whatis index and groff (lintian checks both):
    # a subcommand page's NAME is `quire-print` (git's spelling, also installed as an alias
    # page), as whatis cannot read a name with a space, while its SYNOPSIS keeps `quire print`;
    # and an empty line between paragraphs is a .Pp request. A help paragraph "Examples:" with
    # indented "quire ..." lines becomes the page's EXAMPLES section (before AUTHORS), one
    # command a line in a literal display: DocumentationExamplesTests runs each of them.
    awk '
        function flush() { if (pp) { print ".Pp"; pp = 0 } }
        /^\.Sh NAME$/ { name = 1; print; next }
        name && /^\.Nm "/ { full = $0; sub(/^\.Nm "/, "", full); sub(/"$/, "", full)
                            short = full; gsub(/ /, "-", short); print ".Nm " short; name = 0; next }
        /^Examples:$/ { pp = 0; examples = 1; next }
        examples && /^  +quire / { line = $0; sub(/^ +/, "", line); collected[++count] = line; next }
        { examples = 0 }
        /^\.Sh AUTHORS$/ && count > 0 { flush(); print ".Sh EXAMPLES"; print ".Bd -literal -offset indent"
                                         for (i = 1; i <= count; i++) print collected[i]; print ".Ed"; count = 0 }
        /^\.Sh / { name = 0 }
        /^\.Nm$/ && full != "" { flush(); print ".Nm \"" full "\""; next }
        /^$/ { flush(); pp = 1; next }
        { flush(); print }
        END { flush() }' "$page" | perl -pe 's/\@U2026\@/.../g; s/\@U00D7\@/\\[mu]/g; s/\@U([0-9A-F]{4,6})\@/\\[u$1]/g' |
        # SEE ALSO names every subcommand, the implicit help command too, which has no page.
        sed '/^\.Xr quire\.help 1 ,$/d' > "$generated/$name"
done
if [[ "${1:-}" == "--check" ]]; then
    if ! diff -ru --exclude=.date man "$generated"; then
        echo "man/ is out of date with the argument parser: run 'make man' and commit." >&2
        exit 1
    fi
    echo "man pages are in sync with the parser"
else
    mkdir -p man
    find man -name '*.1' -delete
    cp "$generated"/*.1 man/
    echo "wrote $(ls "$generated" | wc -l) man pages to man/"
fi
