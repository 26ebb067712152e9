#!/usr/bin/env bash
# Benchmark (not a test): Quire composing a print job itself — 2-up of pages 1–500 of the
# 1000-page bench PDF — beside pdfjam/pdfnup when installed (texlive-extra-utils), and the print
# sheet's preview of the first side after an option change (through the render worker, as the
# sheet asks for it). Prints times and ratios; never fails on a number.
#
# Usage: bench/compose-bench.sh [QUIRE_BINARY] [RUNS]
#   targets (issue 29): composing ≤ 1.5× pdfjam's time where installed, else ≤ 3 s; the first
#   side's preview ≤ 200 ms after an option changes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
quire="$(realpath -m "${1:-$root/.build/release/quire}")"
runs="${2:-5}"
samples="$root/Samples/generated"
bench="$(dirname "$quire")/compose-bench"
[[ -x "$quire" ]] || { echo "bench: $quire not built (swift build -c release)" >&2; exit 69; }
[[ -f "$samples/thousand-pages.pdf" ]] || "$root/Samples/generate.sh" >/dev/null
pdf="$samples/thousand-pages.pdf"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
now() { local t=${EPOCHREALTIME/./}; echo "$t"; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# No print system: Save as PDF needs none (and a printer's lookup is not what is measured).
export CUPS_SERVER=127.0.0.1:1
echo "Compose 2-up of pages 1-500 of thousand-pages.pdf on A4 ($runs runs, median):"
quire_times=()
for _ in $(seq "$runs"); do
    s=$(now); "$quire" print --output "$tmp/q.pdf" -P 1-500 -o number-up=2 -o media=A4 "$pdf" >/dev/null; e=$(now)
    quire_times+=($(( e - s )))
done
q=$(printf '%s\n' "${quire_times[@]}" | median)
printf '  quire print --output        %8.3f s (%s sides)\n' "$(echo "$q / 1000000" | bc -l)" "$(pdfinfo "$tmp/q.pdf" | sed -n 's/^Pages: *//p')"
if command -v pdfjam >/dev/null; then
    jam_times=()
    for _ in $(seq "$runs"); do
        s=$(now); pdfjam --quiet --nup 2x1 --landscape --a4paper "$pdf" 1-500 --outfile "$tmp/j.pdf"; e=$(now)
        jam_times+=($(( e - s )))
    done
    j=$(printf '%s\n' "${jam_times[@]}" | median)
    printf '  pdfjam --nup 2x1            %8.3f s\n' "$(echo "$j / 1000000" | bc -l)"
    printf '  ratio quire/pdfjam          %8.2f (target <= 1.5)\n' "$(echo "$q / $j" | bc -l)"
else
    echo "  pdfjam/pdfnup not installed (texlive-extra-utils): absolute time only (target <= 3 s)"
fi
if command -v pdftocairo >/dev/null; then
    s=$(now); pdftocairo -pdf -f 1 -l 500 "$pdf" "$tmp/c.pdf"; e=$(now)
    printf '  (floor: pdftocairo -pdf 1-500, 1-up, same poppler→cairo path: %.3f s)\n' "$(echo "($e - $s) / 1000000" | bc -l)"
fi
echo
if [[ -x "$bench" ]]; then
    echo "Print sheet preview through the render worker (target: first side <= 200 ms after a change):"
    "$bench" "$quire" "$pdf" 9 | sed 's/^/  /'
else
    echo "compose-bench not built beside $quire (swift build --product compose-bench): preview not measured"
fi
