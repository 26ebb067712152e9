#!/bin/bash
# Issue 38's window figure for tables: `quire look FILE.csv` started cold (window, render worker)
# until the table's first screen of rows is on screen, for a CSV of ROWS rows (default 10
# million, about 1 GB) and one of 1,000 rows ("whatever the file's size"), beside the floor: a
# bare GTK 4 window that paints one rectangle (bench/floors/gtk4-window-floor.c).
#
#   bench/csv-window-bench.sh QUIRE [RUNS] [ROWS]
#
# How: Xvfb 1280x900 (Tests/Support/x11-testbed.sh, a fresh X server and bus for each run, no
# accessibility bridge); bench/window-probe.c starts the viewer (the clock starts there) and grabs
# the screen every 10 ms; the first screen is the first grab with at least 8,000 pixels of the
# cells' text colour (#333333, Adwaita's light foreground on white, within 12 a channel). A row
# of the table is about 500 such pixels and the window's own chrome (title, buttons) under
# 1,000, so the count is reached only when about 16 rows or more are drawn. The file is in the
# page cache (read once first), as the CSV is after a file manager listed it; each run starts
# quire-look and its worker anew. The table is the worker's: the first 64 KiB is sent at once,
# the rest of the first window after. With QUIRE_LOOK_TRACE the viewer says where its time went
# (printed per run). A benchmark, not a test: it prints figures and never fails on one.
set -uo pipefail
QUIRE=${1:?usage: $0 QUIRE [RUNS] [ROWS]}
RUNS=${2:-5}
ROWS=${3:-10000000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
QUIRE=$(cd "$(dirname "$QUIRE")" && pwd)/$(basename "$QUIRE")
for tool in Xvfb cc python3 pkg-config; do
    command -v "$tool" >/dev/null || { echo "csv-window-bench: $tool is not installed" >&2; exit 69; }
done

. "$ROOT/bench/lib/window-bench.sh"
window_bench_start csv-window-bench
cc -O2 "$ROOT/bench/floors/gtk4-window-floor.c" -o "$WORK/gtk4-window-floor" $(pkg-config --cflags --libs gtk4) || exit 70

# The big file is shared with bench/csv-bench.sh (written once, kept between runs).
DIR=${TMPDIR:-/tmp}/quire-csv-bench
mkdir -p "$DIR"
BIG=$DIR/rows-$ROWS.csv
if [ ! -s "$BIG" ]; then
    python3 "$ROOT/bench/lib/csv-rows.py" "$BIG.part" "$ROWS" || exit 70
    mv "$BIG.part" "$BIG"
fi
SMALL=$WORK/rows-1000.csv
python3 "$ROOT/bench/lib/csv-rows.py" "$SMALL" 1000 || exit 70
cat "$BIG" "$SMALL" > /dev/null

echo "== quire look FILE.csv until the table's first screen, Xvfb 1280x900, $RUNS cold starts each =="
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# one NAME COMMAND...: one cold start; prints page_ms (-1: not within 30 s) and the trace.
one() {
    local out start trace=$WORK/trace
    rm -f "$trace"
    # A fresh X server and bus each run: nothing of the last window is left on the screen.
    "$ROOT/Tests/Support/x11-testbed.sh" stop "$BED" 2>/dev/null
    rm -rf "$BED"
    window_bench_display csv-window-bench
    case $1 in
    floor) out=$("$WORK/window-probe" -t 30 -- "$WORK/gtk4-window-floor") ;;
    *) out=$(QUIRE_LOOK_TRACE=$trace "$WORK/window-probe" -c 333333 -d 12 -r 8000 -t 30 -- "$QUIRE" look --no-resume "$2") ;;
    esac
    VIEWER_PID=$(sed -n 's/.*pid=\([0-9]*\).*/\1/p' <<<"$out")
    start=$(sed -n 's/.*start_ms=\([0-9.]*\).*/\1/p' <<<"$out")
    MS=$(page_ms <<<"$out"); MS=${MS:--1}
    if [ -s "$trace" ]; then
        TRACE=$(awk -v s="$start" '{ t = $1; $1 = ""; printf "%s +%d ms;", $0, t - s }' "$trace" | sed 's/^ //')
    else
        TRACE=
    fi
    stop_viewer
}

for what in "$ROWS rows:$BIG" "1,000 rows:$SMALL" "floor:"; do
    label=${what%%:*}; file=${what#*:}
    figures=
    for run in $(seq 1 "$RUNS"); do
        if [ "$label" = floor ]; then one floor; else one quire "$file"; fi
        figures+="$MS "
        [ -n "$TRACE" ] && echo "  $label run $run: $MS ms — $TRACE"
    done
    case $label in
    floor) name="floor: bare GTK 4 window, first paint" ;;
    *) name="quire look, $label ($(stat -c %s "$file") bytes)" ;;
    esac
    printf "%-52s %s\n" "$name" "$(tr ' ' '\n' <<<"$figures" | grep . | summary)"
done
echo "the issue's bar: the first screen in the window ≤ 400 ms, whatever the file's size"
