#!/bin/bash
# An animated GIF in the window (issue 39): `quire look` on Samples' moving.gif (640×480, 48
# frames of 40 ms, 25 frames a second, looping) under Xvfb, RUNS cold starts. For each run:
#   first frame   ms from `quire look` to the first screen grab showing the bar (window-probe,
#                 the bar's red), and the window's own trace ("first page painted"); beside it the
#                 floor, a bare GTK 4 window's first paint under the same probe
#   playback      frames shown against frames due over PLAY seconds of playing (the window's
#                 QUIRE_LOOK_TRACE "animation frame N shown" marks, from 1 s after it started),
#                 frames that were late (not yet from the worker when due), and RSS (window +
#                 worker) while playing
#
#   bench/animation-bench.sh QUIRE [RUNS] [PLAY] [FILE]
#
# A benchmark, not a test: it prints figures and never fails on a number.
set -uo pipefail
QUIRE=${1:?usage: $0 QUIRE [RUNS] [PLAY] [FILE]}
RUNS=${2:-3}
PLAY=${3:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FILE=${4:-$ROOT/Samples/generated/animations/moving.gif}
QUIRE=$(cd "$(dirname "$QUIRE")" && pwd)/$(basename "$QUIRE")
for tool in Xvfb xdotool cc; do
    command -v "$tool" >/dev/null || { echo "animation-bench: $tool is not installed" >&2; exit 69; }
done
[ -f "$FILE" ] || { echo "animation-bench: no $FILE (make samples)" >&2; exit 66; }
. "$ROOT/bench/lib/window-bench.sh"
window_bench_start animation-bench
# The floor: a bare GTK 4 window that paints a red rectangle (bench/floors/gtk4-window-floor.c),
# timed by the same probe in the same runs: what GTK's own start costs on this machine.
cc -O2 "$ROOT/bench/floors/gtk4-window-floor.c" -o "$WORK/gtk4-window-floor" $(pkg-config --cflags --libs gtk4) 2>/dev/null || exit 70
# The same window with libadwaita started first (quire-look's native look): adw_init's stylesheet.
cc -O2 -DWITH_ADWAITA "$ROOT/bench/floors/gtk4-window-floor.c" -o "$WORK/adw-window-floor" $(pkg-config --cflags --libs libadwaita-1) 2>/dev/null || exit 70
tree() { local pid=$1 child; echo "$pid"; for child in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do tree "$child"; done; }
rss_kb() { local total=0 pid kb; for pid in $(tree "$1"); do kb=$(awk '/^VmRSS/ {print $2}' /proc/"$pid"/status 2>/dev/null); total=$((total + ${kb:-0})); done; echo "$total"; }
# Waits until a process (not this shell's child: the probe's) has gone, and its window with it.
gone() { for _ in $(seq 1 200); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.01; done; }
summary() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "n/a"; exit } m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%s (%s–%s)", m, v[1], v[NR] }'; }
NAME=$(basename "$FILE")
cat "$FILE" > /dev/null
# The file's own frame delay (ms): every frame of moving.gif has the same.
DELAY=$("$QUIRE" info --json "$FILE" | tr -d '\n ' | sed -n 's/.*"animation":{"duration":\([0-9.]*\),"frames":\([0-9]*\).*/\1 \2/p' | awk '{ printf "%d", $1 * 1000 / $2 + 0.5 }')
[ -n "$DELAY" ] && [ "$DELAY" -gt 0 ] || DELAY=40

echo "== animated GIF in quire look: $NAME, Xvfb, $RUNS cold starts, $PLAY s of playing each (frame delay $DELAY ms) =="
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
FIRST=""; PAINTED=""; RATES=""; LATE=""; RSS=""; FLOOR=""; ADW_FLOOR=""
for run in $(seq 1 "$RUNS"); do
    "$ROOT/Tests/Support/x11-testbed.sh" stop "$BED" 2>/dev/null
    rm -rf "$BED" "$WORK/trace"
    window_bench_display animation-bench
    export CUPS_SERVER=127.0.0.1:1
    # The bar is (255, 40, 40): counted within 40 of that.
    out=$(QUIRE_LOOK_TRACE=$WORK/trace "$WORK/window-probe" -c FF2828 -d 40 -r 2000 -t 60 -- "$QUIRE" look --no-resume "$FILE")
    VIEWER_PID=$(sed -n 's/.*pid=\([0-9]*\).*/\1/p' <<<"$out")
    START_MS=$(sed -n 's/.*start_ms=\([0-9.]*\).*/\1/p' <<<"$out")
    first=$(sed -n 's/.*page_ms=\([-0-9]*\).*/\1/p' <<<"$out")
    for _ in $(seq 1 500); do grep -q "animation started" "$WORK/trace" 2>/dev/null && break; sleep 0.02; done
    sleep $((PLAY + 2))
    rss=$(awk -v k="$(rss_kb "${VIEWER_PID:-0}")" 'BEGIN { printf "%.1f", k / 1024 }')
    RSS+="$rss "
    # From 1 s after playing started, PLAY seconds: frames shown, frames due, frames late.
    read -r painted shown due late < <(awk -v s="$START_MS" -v play="$PLAY" -v delay="$DELAY" '
        / first page painted$/ && !p { p = $1 - s }
        / animation started/ && !a { a = $1 }
        a && $1 >= a + 1000 && $1 < a + 1000 + play * 1000 {
            if (/ animation frame [0-9]+ shown$/) shown++
            if (/ animation frame [0-9]+ late$/) late++
        }
        END { printf "%d %d %d %d\n", p, shown, play * 1000 / delay, late }' "$WORK/trace")
    rate=$(awk -v a="$shown" -v b="$due" 'BEGIN { printf "%.3f", b ? a / b : 0 }')
    echo "  run $run: first frame on screen ${first} ms (trace: first page painted +${painted} ms); $shown of $due frames shown in $PLAY s ($rate), $late late; RSS $rss MB"
    FIRST+="$first "; PAINTED+="$painted "; RATES+="$rate "; LATE+="$late "
    kill "$VIEWER_PID" 2>/dev/null; wait "$VIEWER_PID" 2>/dev/null
    gone "$VIEWER_PID"; VIEWER_PID=
    out=$("$WORK/window-probe" -c FF2828 -d 40 -t 30 -- "$WORK/gtk4-window-floor")
    floor=$(sed -n 's/.*page_ms=\([-0-9]*\).*/\1/p' <<<"$out")
    FLOOR+="$floor "
    pid=$(sed -n 's/.*pid=\([0-9]*\).*/\1/p' <<<"$out"); [ -n "$pid" ] && kill "$pid" 2>/dev/null && gone "$pid"
    out=$("$WORK/window-probe" -c FF2828 -d 40 -t 30 -- "$WORK/adw-window-floor")
    ADW_FLOOR+="$(sed -n 's/.*page_ms=\([-0-9]*\).*/\1/p' <<<"$out") "
    pid=$(sed -n 's/.*pid=\([0-9]*\).*/\1/p' <<<"$out"); [ -n "$pid" ] && kill "$pid" 2>/dev/null && gone "$pid"
done
echo "first frame on screen: $(tr ' ' '\n' <<<"$FIRST" | grep . | summary) ms; painted (trace) $(tr ' ' '\n' <<<"$PAINTED" | grep . | summary) ms"
echo "floor (bare GTK 4 window, first paint): $(tr ' ' '\n' <<<"$FLOOR" | grep . | summary) ms"
echo "floor with libadwaita started first:    $(tr ' ' '\n' <<<"$ADW_FLOOR" | grep . | summary) ms"
echo "frames shown / due:    $(tr ' ' '\n' <<<"$RATES" | grep . | summary); late frames $(tr ' ' '\n' <<<"$LATE" | grep . | summary)"
echo "RSS while playing:     $(tr ' ' '\n' <<<"$RSS" | grep . | summary) MB (window + worker)"
echo "goal: every frame shown at its time (1.000), none late"
