#!/usr/bin/env bash
# Benchmark (not a test): `quire thumbnail` against `pdftocairo -png -singlefile -scale-to 256`
# on the same PDF files, one process per file for both (the freedesktop thumbnailer contract),
# plus peak memory (max RSS) for the thumbnail of a 1000-page PDF.
#
# Usage: bench/thumbnail-bench.sh [QUIRE_BINARY] [RUNS]
#   QUIRE_BINARY defaults to .build/release/quire (build it with: swift build -c release)
#   RUNS         repetitions per file (default 20)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
quire="${1:-$root/.build/release/quire}"
runs="${2:-20}"
samples="$root/Samples/generated"
[[ -x "$quire" ]] || { echo "bench: $quire not built (swift build -c release)" >&2; exit 69; }
command -v pdftocairo >/dev/null || { echo "bench: pdftocairo missing (apt-get install poppler-utils)" >&2; exit 69; }
[[ -f "$samples/thousand-pages.pdf" ]] || "$root/Samples/generate.sh" >/dev/null
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

now() { date +%s%N; }

# Milliseconds per run of a command over RUNS runs (after one warm-up run).
per_run() {
    "$@" >/dev/null 2>&1
    local start end
    start=$(now)
    for ((i = 0; i < runs; i++)); do "$@" >/dev/null 2>&1; done
    end=$(now)
    echo "scale=2; ($end - $start) / 1000000 / $runs" | bc
}

printf '%-24s %12s %14s %8s\n' "file" "quire ms" "pdftocairo ms" "ratio"
for name in document.pdf encrypted.pdf:secret thousand-pages.pdf; do
    file="${name%%:*}"; password=""
    [[ "$name" == *:* ]] && password="${name#*:}"
    input="$samples/$file"
    if [[ -n "$password" ]]; then
        q=$(per_run "$quire" thumbnail -s 256 --password "$password" "$input" "$tmp/q.png")
        p=$(per_run pdftocairo -png -singlefile -scale-to 256 -upw "$password" "$input" "$tmp/p")
    else
        q=$(per_run "$quire" thumbnail -s 256 "$input" "$tmp/q.png")
        p=$(per_run pdftocairo -png -singlefile -scale-to 256 "$input" "$tmp/p")
    fi
    ratio=$(echo "scale=2; $p / $q" | bc)
    printf '%-24s %12s %14s %7sx\n' "$file" "$q" "$p" "$ratio"
done
echo "(ratio = pdftocairo time / quire time; above 1 means quire is faster)"

echo
echo "Peak memory (max RSS) for the first-page thumbnail of thousand-pages.pdf:"
qm=$(/usr/bin/time -f %M "$quire" thumbnail -s 256 "$samples/thousand-pages.pdf" "$tmp/q.png" 2>&1 >/dev/null | tail -1)
pm=$(/usr/bin/time -f %M pdftocairo -png -singlefile -scale-to 256 "$samples/thousand-pages.pdf" "$tmp/p" 2>&1 >/dev/null | tail -1)
printf '  quire      %6s KiB\n  pdftocairo %6s KiB\n' "$qm" "$pm"
echo
echo "Other families (quire only, ms per file):"
for file in format.jpg format.png drawing.svg notes.txt document.odt book.epub document.ps; do
    printf '  %-20s %8s\n' "$file" "$(per_run "$quire" thumbnail -s 256 "$samples/$file" "$tmp/q.png")"
done
