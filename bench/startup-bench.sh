#!/usr/bin/env bash
# Benchmark (not a test): what one `quire` process costs per command, beside the C tool that does
# the same work, in one run (hyperfine -N: no shell, warm-up runs, mean ± σ). File managers start
# one process per thumbnail (the .thumbnailer contract) and Nemo runs `quire can-print` each time
# a context menu opens, so start-up is most of what they pay.
#
# Usage: bench/startup-bench.sh [QUIRE_BINARY] [RUNS]
#   QUIRE_BINARY  default .build-static/release/quire (make release)
#   RUNS          runs per command (default 30; print rows use a third, each run submits a job)
# Needs: hyperfine, poppler-utils (pdfinfo, pdftocairo), cups-client (lp) and the test bed's
# packages (cups cups-ipp-utils cups-filters dbus-daemon), run as root like make test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
quire="${1:-$root/.build-static/release/quire}"
runs="${2:-30}"
samples="$root/Samples/generated"
doc="$samples/thousand-pages.pdf"
[[ -x "$quire" ]] || { echo "bench: $quire not built (make release)" >&2; exit 69; }
for tool in hyperfine pdfinfo pdftocairo lp cc c++; do
    command -v "$tool" >/dev/null || { echo "bench: $tool missing" >&2; exit 69; }
done
[[ -f "$doc" ]] || "$root/Samples/generate.sh" >/dev/null
tmp="$(mktemp -d)"
bed="$tmp/bed"
cleanup() {
    "$root/Tests/Support/cups-testbed.sh" stop "$bed" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT

# The floors: C programs doing only the minimal work through the same libraries.
swiftc -O -static-stdlib -o "$tmp/floor-swift" "$root/bench/floors/version.swift" 2>/dev/null
cc -O2 -o "$tmp/floor-info" "$root/bench/floors/info.c" $(pkg-config --cflags --libs gio-2.0) -ldl
c++ -O2 -o "$tmp/floor-info-cpp" "$root/bench/floors/info-cpp.cc" $(pkg-config --cflags --libs gio-2.0 poppler-cpp)
cc -O2 -o "$tmp/floor-thumbnail" "$root/bench/floors/thumbnail.c" $(pkg-config --cflags --libs gio-2.0 poppler-glib cairo) -lm

# mean ms of one command (hyperfine -N), env given as NAME=VALUE words before --
mean() {
    local json="$tmp/h.json" n="$runs"
    local -a prepare=()
    if [[ "$1" == --runs ]]; then n="$2"; shift 2; fi
    if [[ "$1" == --prepare ]]; then prepare=(--prepare "$2"); shift 2; fi
    local -a env=()
    while [[ "$1" != -- ]]; do env+=("$1"); shift; done
    shift
    env "${env[@]}" hyperfine -N -i --style none --warmup 3 --runs "$n" "${prepare[@]}" --export-json "$json" "$*" >/dev/null 2>&1 \
        || { echo "nan"; return; }
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.2f %.2f" % (r["mean"]*1000, r["stddev"]*1000))' "$json"
}

row() {   # label goal quire-result other-label other-result
    local q=($3) o=($5)
    local ratio="-"
    [[ -n "${o[0]:-}" && "${o[0]}" != "-" && "${q[0]}" != nan ]] && ratio=$(python3 -c "import sys; print('%.2f×' % (float(sys.argv[1]) / float(sys.argv[2])))" "${q[0]}" "${o[0]}")
    printf '%-46s %8s ±%5s  %-34s %8s ±%5s  %7s  %s\n' "$1" "${q[0]}" "${q[1]:-}" "$4" "${o[0]:-}" "${o[1]:-}" "$ratio" "$2"
}

"$root/Tests/Support/cups-testbed.sh" dead "$bed.dead" >/dev/null
dead_server=$(sed -n 's/^CUPS_SERVER=//p' "$bed.dead/env" | tr -d "'\"")
"$root/Tests/Support/cups-testbed.sh" start "$bed" >/dev/null
server=$(sed -n 's/^CUPS_SERVER=//p' "$bed/env" | tr -d "'\"")
queue=quire-office

echo "quire: $quire ($(stat -c %s "$quire") bytes, $(readelf -d "$quire" | grep -c NEEDED) NEEDED libraries)"
echo "document: $doc (1000 pages); $runs runs each, hyperfine -N --warmup 3; times in ms"
printf '%-46s %16s  %-34s %16s  %7s  %s\n' "quire command" "quire" "beside it" "" "ratio" "goal"
row "quire --version" "≤ 6 ms" "$(mean -- "$quire" --version)" \
    "static Swift: print(version)" "$(mean -- "$tmp/floor-swift")"
row "quire info doc.pdf" "≤ 1.5× pdfinfo" "$(mean -- "$quire" info "$doc")" \
    "pdfinfo doc.pdf" "$(mean -- pdfinfo "$doc")"
row "  (floor: C, GIO sniff + poppler-glib pages)" "" "$(mean -- "$tmp/floor-info" "$doc")" "" "-"
cpp_floor="$(mean -- "$tmp/floor-info-cpp" "$doc")"
row "  (floor: C++, GIO sniff + poppler-cpp pages)" "" "$cpp_floor" "" "-"
row "quire thumbnail -s 128 doc.pdf out.png" "≤ 1× pdftocairo" "$(mean -- "$quire" thumbnail -s 128 "$doc" "$tmp/q.png")" \
    "pdftocairo -png -singlefile -scale-to 128" "$(mean -- pdftocairo -png -singlefile -scale-to 128 "$doc" "$tmp/p")"
row "  (floor: C, GIO sniff + poppler-glib/cairo)" "" "$(mean -- "$tmp/floor-thumbnail" 128 "$doc" "$tmp/f.png")" "" "-"
row "quire can-print doc.pdf (no print server)" "≤ 15 ms" \
    "$(mean CUPS_SERVER="$dead_server" -- "$quire" can-print "$doc")" "" "-"
row "quire can-print doc.pdf (test-bed cupsd)" "≤ 15 ms" \
    "$(mean CUPS_SERVER="$server" -- "$quire" can-print "$doc")" "" "-"
print_runs=$(( runs / 3 > 5 ? runs / 3 : 5 ))
# Before each print run, the jobs of earlier runs are cancelled: otherwise cupsd's filters
# (pdftopdf on the 1000-page file) still run for them on the same two cores, and whichever
# command is measured second pays for the first one's jobs.
cancel_jobs="$root/Tests/Support/cups-testbed.sh admin $bed cancel -a"
quire_print="$(mean --runs "$print_runs" --prepare "$cancel_jobs" CUPS_SERVER="$server" -- "$quire" print -d "$queue" -P 2-3 "$doc")"
lp_print="$(mean --runs "$print_runs" --prepare "$cancel_jobs" CUPS_SERVER="$server" -- lp -d "$queue" -P 2-3 "$doc")"
row "quire print -d P -P 2-3 doc.pdf (cupsd)" "≤ 1.5× lp" "$quire_print" "lp -d P -P 2-3 doc.pdf" "$lp_print"
# What lp's work plus the range check would cost one after the other: lp, then the C++ page
# count above (quire runs its page count beside the printer lookup instead).
serial=$(python3 -c 'import sys; a, b = sys.argv[1].split(), sys.argv[2].split(); print("%.2f -" % (float(a[0]) + float(b[0])) if a[0] != "nan" and b[0] != "nan" else "nan -")' "$lp_print" "$cpp_floor")
row "  (lp, then the C++ page count, in sequence)" "" "$serial" "lp -d P -P 2-3 doc.pdf" "$lp_print"
"$root/Tests/Support/cups-testbed.sh" admin "$bed" cancel -a >/dev/null 2>&1 || true
