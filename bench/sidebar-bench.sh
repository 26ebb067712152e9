#!/bin/bash
# The page sidebar's memory: `quire look` on a 1000-page PDF under Xvfb; RSS of the window and
# its render worker (VmRSS summed over the process tree) with the first page on screen, then
# after F9 (the sidebar shown, its thumbnails drawn), after End (the column follows to page
# 1000), and after scrolling the column through all 1000 thumbnails (mouse wheel over it, each
# thumbnail rendered once it comes into view; the cache keeps at most 6 MB of them). RUNS runs;
# each figure is the median, min–max of the growth over the first-page RSS.
#
#   bench/sidebar-bench.sh QUIRE [RUNS] [FILE]
#
# A benchmark, not a test: it prints figures and never fails on a number.
set -uo pipefail
QUIRE=${1:?usage: $0 QUIRE [RUNS] [FILE]}
RUNS=${2:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FILE=${3:-$ROOT/Samples/generated/thousand-pages.pdf}
QUIRE=$(cd "$(dirname "$QUIRE")" && pwd)/$(basename "$QUIRE")
for tool in Xvfb xdotool; do
    command -v "$tool" >/dev/null || { echo "sidebar-bench: $tool is not installed" >&2; exit 69; }
done
[ -f "$FILE" ] || { echo "sidebar-bench: no $FILE (make samples)" >&2; exit 66; }
WORK=$(mktemp -d /tmp/quire-sidebar-bench.XXXXXX)
BED=$WORK/bed
cleanup() {
    [ -n "${LOOK_PID:-}" ] && kill "$LOOK_PID" 2>/dev/null
    "$ROOT/Tests/Support/x11-testbed.sh" stop "$BED" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
tree() { local pid=$1 child; echo "$pid"; for child in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do tree "$child"; done; }
rss_kb() { local total=0 pid kb; for pid in $(tree "$1"); do kb=$(awk '/^VmRSS/ {print $2}' /proc/"$pid"/status 2>/dev/null); total=$((total + ${kb:-0})); done; echo "$total"; }
summary() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "n/a"; exit } m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.1f MB (%.1f–%.1f)", m / 1024, v[1] / 1024, v[NR] / 1024 }'; }
NAME=$(basename "$FILE")
cat "$FILE" > /dev/null

echo "== page sidebar: RSS growth of quire look (window + worker) on $NAME, Xvfb 1280x900, $RUNS runs =="
SHOWN=""; ENDED=""; SCROLLED=""; BASE=""
for run in $(seq 1 "$RUNS"); do
    "$ROOT/Tests/Support/x11-testbed.sh" stop "$BED" 2>/dev/null
    rm -rf "$BED" "$WORK/trace"
    "$ROOT/Tests/Support/x11-testbed.sh" start "$BED" >/dev/null || { echo "sidebar-bench: no X test bed" >&2; exit 70; }
    set -a; . "$BED/env"; set +a
    export XDG_STATE_HOME=$WORK/state CUPS_SERVER=127.0.0.1:1 NO_AT_BRIDGE=1 GTK_A11Y=none QUIRE_LOOK_TRACE=$WORK/trace
    "$QUIRE" look --no-resume "$FILE" & LOOK_PID=$!
    WINDOW=$(xdotool search --sync --onlyvisible --name "^${NAME//./\\.}\$" | head -1)
    until grep -q "first page painted" "$WORK/trace" 2>/dev/null; do sleep 0.01; done
    sleep 1.5
    base=$(rss_kb "$LOOK_PID")
    xdotool key --window "$WINDOW" F9; sleep 2
    shown=$(rss_kb "$LOOK_PID")
    xdotool key --window "$WINDOW" End; sleep 2
    ended=$(rss_kb "$LOOK_PID")
    # The wheel over the column, from the top to the bottom (60 px a notch, ~174 px a thumbnail).
    xdotool key --window "$WINDOW" Home; sleep 0.5
    xdotool mousemove --window "$WINDOW" 80 400
    for _ in $(seq 1 60); do xdotool click --repeat 50 --delay 2 5; done
    sleep 2
    scrolled=$(rss_kb "$LOOK_PID")
    BASE+="$base "; SHOWN+="$((shown - base)) "; ENDED+="$((ended - base)) "; SCROLLED+="$((scrolled - base)) "
    kill "$LOOK_PID" 2>/dev/null; wait "$LOOK_PID" 2>/dev/null; LOOK_PID=
done
echo "first page on screen: $(tr ' ' '\n' <<<"$BASE" | grep . | summary) RSS"
echo "sidebar shown (F9):            +$(tr ' ' '\n' <<<"$SHOWN" | grep . | summary)"
echo "then End (page 1000):          +$(tr ' ' '\n' <<<"$ENDED" | grep . | summary)"
echo "then all thumbnails scrolled:  +$(tr ' ' '\n' <<<"$SCROLLED" | grep . | summary)"
echo "goal: the sidebar adds ≤ 30 MB"
