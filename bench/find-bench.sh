#!/bin/bash
# Find: a word that occurs only on page 900 of a 1000-page text PDF (Samples/find-samples.py's
# find-1000.pdf), from the moment the search starts to the first match shown, with the keys
# answered meanwhile. Three ways, RUNS times each (median, min–max):
#   - terminal: `quire look` in tmux (100x40); the clock starts as "/xylophone" + Enter is
#     sent, the match is shown when the status line says "page 900 of 1000" and "1 of 1"
#     (capture-pane polled every ~5 ms). A key sent right after Enter ("i", the info panel) is
#     timed too: until its panel is on the screen, while the search runs.
#   - window: `quire look` under Xvfb (Tests/Support/x11-testbed.sh) with QUIRE_LOOK_TRACE; the
#     search bar gets the word (xdotool) and the clock runs from the search starting ("find
#     asked": GtkSearchEntry's search-changed, after its 150 ms typing pause) to the page with
#     the match painted ("match painted", in the page view's draw); "first match found" (the
#     worker's answer applied in the model, before the page is drawn) is printed beside it.
#
#   bench/find-bench.sh QUIRE [RUNS]
#
# A benchmark, not a test: it prints figures and never fails on a number.
set -uo pipefail
QUIRE=${1:?usage: $0 QUIRE [RUNS]}
RUNS=${2:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
QUIRE=$(cd "$(dirname "$QUIRE")" && pwd)/$(basename "$QUIRE")
FILE=$ROOT/Samples/generated/find-1000.pdf
[ -f "$FILE" ] || python3 "$ROOT/Samples/find-samples.py" "$ROOT/Samples/generated" || exit 70
for tool in tmux Xvfb xdotool; do
    command -v "$tool" >/dev/null || { echo "find-bench: $tool is not installed" >&2; exit 69; }
done
WORK=$(mktemp -d /tmp/quire-find-bench.XXXXXX)
BED=$WORK/bed
T="tmux -L quire-find-bench-$$"
cleanup() {
    $T kill-server 2>/dev/null
    [ -n "${LOOK_PID:-}" ] && kill "$LOOK_PID" 2>/dev/null
    "$ROOT/Tests/Support/x11-testbed.sh" stop "$BED" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
cat "$FILE" > /dev/null
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
summary() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "n/a"; exit } m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%d ms (%d–%d)", m, v[1], v[NR] }'; }

echo "== find: a word only on page 900 of $(basename "$FILE") (1000 pages), $RUNS runs each =="
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

FOUND=""; KEYS=""
for run in $(seq 1 "$RUNS"); do
    $T kill-server 2>/dev/null
    env -u DISPLAY -u WAYLAND_DISPLAY XDG_STATE_HOME=$WORK/state CUPS_SERVER=127.0.0.1:1 TERM=xterm-256color \
        $T -f /dev/null new-session -d -x 100 -y 40 "$QUIRE" look --no-resume "$FILE"
    until $T capture-pane -p 2>/dev/null | grep -q "page 1 of 1000"; do sleep 0.005; done
    start=$(now_ms)
    $T send-keys / && $T send-keys -l xylophone && $T send-keys Enter i
    key=""
    while true; do
        screen=$($T capture-pane -p)
        [ -z "$key" ] && grep -q "^ *Kind\|│ Kind" <<<"$screen" && key=$(( $(now_ms) - start ))
        grep -q "page 900 of 1000" <<<"$screen" && grep -q "1 of 1 " <<<"$screen" && break
        [ $(( $(now_ms) - start )) -gt 30000 ] && { echo "terminal run $run: no match after 30 s"; break; }
        sleep 0.005
    done
    found=$(( $(now_ms) - start ))
    [ -z "$key" ] && key=$found
    FOUND+="$found "; KEYS+="$key "
    $T send-keys q; sleep 0.2
done
echo "terminal (tmux): Enter → match on screen $(tr ' ' '\n' <<<"$FOUND" | grep . | summary); a key pressed after Enter answered in $(tr ' ' '\n' <<<"$KEYS" | grep . | summary)"

ASKED=""; PAINTED=""
for run in $(seq 1 "$RUNS"); do
    "$ROOT/Tests/Support/x11-testbed.sh" stop "$BED" 2>/dev/null
    rm -rf "$BED"
    "$ROOT/Tests/Support/x11-testbed.sh" start "$BED" >/dev/null || { echo "find-bench: no X test bed" >&2; exit 70; }
    (
        set -a; . "$BED/env"; set +a
        export XDG_STATE_HOME=$WORK/state CUPS_SERVER=127.0.0.1:1 NO_AT_BRIDGE=1 GTK_A11Y=none QUIRE_LOOK_TRACE=$WORK/trace
        rm -f "$WORK/trace"
        "$QUIRE" look --no-resume "$FILE" & LOOK_PID=$!
        xdotool search --sync --onlyvisible --name '^find-1000\.pdf$' >/dev/null
        until grep -q "first page painted" "$WORK/trace" 2>/dev/null; do sleep 0.01; done
        xdotool key ctrl+f
        sleep 0.3
        xdotool type --delay 20 xylophone
        for _ in $(seq 1 3000); do grep -q "match painted" "$WORK/trace" && break; sleep 0.01; done
        kill "$LOOK_PID" 2>/dev/null; wait "$LOOK_PID" 2>/dev/null
    )
    asked=$(awk '/find asked/ { t = $1 } END { print t }' "$WORK/trace")
    found=$(awk '/first match found/ { print $1; exit }' "$WORK/trace")
    painted=$(awk '/match painted/ { print $1; exit }' "$WORK/trace")
    if [ -n "$asked" ] && [ -n "$painted" ]; then
        ASKED+="$(awk -v a="$asked" -v b="$found" 'BEGIN { printf "%d", b - a }') "
        PAINTED+="$(awk -v a="$asked" -v b="$painted" 'BEGIN { printf "%d", b - a }') "
    else
        echo "window run $run: no match painted"
    fi
done
echo "window (Xvfb): search started → first match found in the model $(tr ' ' '\n' <<<"$ASKED" | grep . | summary), → painted $(tr ' ' '\n' <<<"$PAINTED" | grep . | summary)"
echo "goal: first match shown ≤ 1500 ms"
