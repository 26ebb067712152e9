#!/usr/bin/env bash
# Benchmark (not a test): what one `quire` process costs per command, beside the C tool that does
# the same work and the floors (the same libraries driven by a minimal C/C++ program), in one run:
# each group of commands is timed round-robin by bench/interleave.py (no shell, three warm-up
# runs each), medians and their ratio. File managers start one process per thumbnail (the
# .thumbnailer contract) and Nemo runs `quire can-print` each time a context menu opens, so
# start-up is most of what they pay.
#
# Usage: bench/startup-bench.sh [QUIRE_BINARY] [RUNS]
#   QUIRE_BINARY  default .build-static/release/quire (make release)
#   RUNS          runs per command (default 30; at least 10 for the print rows)
# Needs: python3, poppler-utils (pdfinfo, pdftocairo), cups-client (lp) and the test bed's
# packages (cups cups-ipp-utils cups-filters dbus-daemon), run as root like make test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
quire="${1:-$root/.build-static/release/quire}"
runs="${2:-30}"
samples="$root/Samples/generated"
doc="$samples/thousand-pages.pdf"
[[ -x "$quire" ]] || { echo "bench: $quire not built (make release)" >&2; exit 69; }
for tool in python3 pdfinfo pdftocairo lp cc c++; do
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

# The floors: minimal programs doing only the same work through the same libraries.
swiftc -O -static-stdlib -o "$tmp/floor-swift" "$root/bench/floors/version.swift" 2>/dev/null
cc -O2 -o "$tmp/floor-info" "$root/bench/floors/info.c" $(pkg-config --cflags --libs gio-2.0) -ldl
c++ -O2 -o "$tmp/floor-info-cpp" "$root/bench/floors/info-cpp.cc" $(pkg-config --cflags --libs gio-2.0 poppler-cpp)
cc -O2 -o "$tmp/floor-thumbnail" "$root/bench/floors/thumbnail.c" $(pkg-config --cflags --libs gio-2.0 poppler-glib cairo) -lm
c++ -O2 -o "$tmp/floor-print" "$root/bench/floors/print.cc" $(pkg-config --cflags --libs gio-2.0 poppler-cpp) -lcups -lpthread
# The same floors called from a static Swift main (bench/floors/swift-main.swift): what the
# language's runtime adds to the same work, before anything of quire's.
c++ -O2 -c -include "$root/bench/floors/floor-main.h" -Dmain=floor_main -o "$tmp/info-cpp.o" \
    "$root/bench/floors/info-cpp.cc" $(pkg-config --cflags gio-2.0 poppler-cpp)
swiftc -O -static-stdlib -parse-as-library -o "$tmp/swift-floor-info" "$root/bench/floors/swift-main.swift" \
    "$tmp/info-cpp.o" $(pkg-config --libs gio-2.0 poppler-cpp) -lstdc++ 2>/dev/null
cc -O2 -c -include "$root/bench/floors/floor-main.h" -Dmain=floor_main -o "$tmp/thumbnail.o" \
    "$root/bench/floors/thumbnail.c" $(pkg-config --cflags gio-2.0 poppler-glib cairo)
swiftc -O -static-stdlib -parse-as-library -o "$tmp/swift-floor-thumbnail" "$root/bench/floors/swift-main.swift" \
    "$tmp/thumbnail.o" $(pkg-config --libs gio-2.0 poppler-glib cairo) -lm 2>/dev/null
c++ -O2 -c -include "$root/bench/floors/floor-main.h" -Dmain=floor_main -o "$tmp/print.o" \
    "$root/bench/floors/print.cc" $(pkg-config --cflags gio-2.0 poppler-cpp)
swiftc -O -static-stdlib -parse-as-library -o "$tmp/swift-floor-print" "$root/bench/floors/swift-main.swift" \
    "$tmp/print.o" $(pkg-config --libs gio-2.0 poppler-cpp) -lcups -lstdc++ 2>/dev/null

# group RUNS [interleave.py options] -- CMD -- CMD ...: one "median mean stddev" line per command
group() {
    "$root/bench/interleave.py" "$@" | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print("nan" if r["failures"] else "%.2f %.2f %.2f" % (r["median_ms"], r["mean_ms"], r["stddev_ms"]))'
}

row() {   # label goal quire-result other-label other-result (results: "median mean stddev")
    local q=($3) o=($5)
    local ratio="-"
    [[ -n "${o[0]:-}" && "${o[0]}" != "-" && "${o[0]}" != nan && "${q[0]}" != nan ]] && ratio=$(python3 -c "import sys; print('%.2f×' % (float(sys.argv[1]) / float(sys.argv[2])))" "${q[0]}" "${o[0]}")
    printf '%-46s %8s ±%5s  %-40s %8s ±%5s  %6s  %s\n' "$1" "${q[0]}" "${q[2]:-}" "$4" "${o[0]:-}" "${o[2]:-}" "$ratio" "$2"
}

"$root/Tests/Support/cups-testbed.sh" dead "$bed.dead" >/dev/null
dead_server=$(sed -n 's/^CUPS_SERVER=//p' "$bed.dead/env" | tr -d "'\"")
"$root/Tests/Support/cups-testbed.sh" start "$bed" >/dev/null
server=$(sed -n 's/^CUPS_SERVER=//p' "$bed/env" | tr -d "'\"")
queue=quire-office

echo "quire: $quire ($(stat -c %s "$quire") bytes, $(readelf -d "$quire" | grep -c NEEDED) NEEDED libraries)"
echo "document: $doc (1000 pages); $runs runs each, each group round-robin (bench/interleave.py); median ± σ, ms"
printf '%-46s %16s  %-40s %16s  %6s  %s\n' "quire command" "quire" "beside it" "" "ratio" "goal"

mapfile -t r < <(group "$runs" -- "$quire --version" -- "$tmp/floor-swift")
row "quire --version" "≤ 6 ms" "${r[0]}" "static Swift: print(version)" "${r[1]}"

mapfile -t r < <(group "$runs" -- "$quire info $doc" -- "pdfinfo $doc" -- "$tmp/floor-info $doc" \
    -- "$tmp/floor-info-cpp $doc" -- "$tmp/swift-floor-info $doc")
row "quire info doc.pdf" "≤ 1.5× pdfinfo" "${r[0]}" "pdfinfo doc.pdf" "${r[1]}"
row "  floor: C, GIO sniff + poppler-glib" "" "${r[2]}" "pdfinfo doc.pdf" "${r[1]}"
row "  floor: C++, GIO sniff + poppler-cpp" "" "${r[3]}" "pdfinfo doc.pdf" "${r[1]}"
row "  floor: the same from a static Swift main" "" "${r[4]}" "pdfinfo doc.pdf" "${r[1]}"
row "  quire / the Swift floor" "" "${r[0]}" "floor: the same from a static Swift main" "${r[4]}"

mapfile -t r < <(group "$runs" -- "$quire thumbnail -s 128 $doc $tmp/q.png" \
    -- "pdftocairo -png -singlefile -scale-to 128 $doc $tmp/p" -- "$tmp/floor-thumbnail 128 $doc $tmp/f.png" \
    -- "$tmp/swift-floor-thumbnail 128 $doc $tmp/s.png")
row "quire thumbnail -s 128 doc.pdf out.png" "≤ 1× pdftocairo" "${r[0]}" "pdftocairo -png -singlefile -scale-to 128" "${r[1]}"
row "  floor: C, GIO sniff + poppler-glib/cairo" "" "${r[2]}" "pdftocairo -png -singlefile -scale-to 128" "${r[1]}"
row "  floor: the same from a static Swift main" "" "${r[3]}" "pdftocairo -png -singlefile -scale-to 128" "${r[1]}"
row "  quire / the Swift floor" "" "${r[0]}" "floor: the same from a static Swift main" "${r[3]}"

# With no print server the answer is "no" (exit 69): the status is the result.
mapfile -t r < <(group "$runs" --env CUPS_SERVER="$dead_server" --any-status -- "$quire can-print $doc")
row "quire can-print doc.pdf (no print server)" "≤ 15 ms" "${r[0]}" "" "-"
mapfile -t r < <(group "$runs" --env CUPS_SERVER="$server" -- "$quire can-print $doc")
row "quire can-print doc.pdf (test-bed cupsd)" "≤ 15 ms" "${r[0]}" "" "-"

# Each print run submits a job. Before every run the jobs of earlier runs are cancelled:
# otherwise cupsd's filters (pdftopdf on the 1000-page file) still run for them on the same two
# cores, and each command would pay for the one before it.
print_runs=$(( runs > 10 ? runs : 10 ))
cancel_jobs="$root/Tests/Support/cups-testbed.sh admin $bed cancel -a"
mapfile -t r < <(group "$print_runs" --env CUPS_SERVER="$server" --prepare "$cancel_jobs" \
    -- "$quire print -d $queue -P 2-3 $doc" -- "lp -d $queue -P 2-3 $doc" -- "$tmp/floor-print $queue 2 3 $doc" \
    -- "$tmp/swift-floor-print $queue 2 3 $doc")
row "quire print -d P -P 2-3 doc.pdf (cupsd)" "≤ 1.5× lp" "${r[0]}" "lp -d P -P 2-3 doc.pdf" "${r[1]}"
row "  floor: C++, count beside lookup, then job" "" "${r[2]}" "lp -d P -P 2-3 doc.pdf" "${r[1]}"
row "  floor: the same from a static Swift main" "" "${r[3]}" "lp -d P -P 2-3 doc.pdf" "${r[1]}"
row "  quire / the Swift floor" "" "${r[0]}" "floor: the same from a static Swift main" "${r[3]}"
"$root/Tests/Support/cups-testbed.sh" admin "$bed" cancel -a >/dev/null 2>&1 || true
