#!/bin/bash
# The Quick Look window beside GNOME's previewer (Sushi, through its D-Bus ShowFile, as Nautilus
# calls it) and Evince, on the same 1000-page PDF, all under Xvfb:
#   - start → window, start → first page painted (median, min–max of RUNS cold starts)
#   - RSS when the first page is on screen, and after paging through all 1000 pages
#
#   bench/look-window-bench.sh QUIRE [RUNS] [FILE]
#
# How each figure is taken, the same way for all three:
#   - every run gets a fresh X server and session bus (Tests/Support/x11-testbed.sh), so each
#     viewer starts cold (Sushi by D-Bus activation, as from Nautilus's Space key); the file
#     itself is in the page cache (read once before).
#   - bench/window-probe.c starts the command and grabs the screen every 10 ms: "window" is the
#     first grab after a new top-level window is viewable, "first page" the first grab with the
#     page's red rectangle on screen (each page of the sample carries one; no viewer's chrome is
#     pure red). For Sushi the clock starts at the `gdbus call ... ShowFile` (Nautilus's call).
#   - RSS: VmRSS of the viewer and its child processes (quire-look + its render worker; Sushi's
#     gjs process; evince), summed. Evince's D-Bus daemon (evinced, ~6 MB) is not counted. PSS
#     (smaps_rollup, summed the same way) is printed beside it: pages shared between the
#     viewer's processes (libraries) count once there, twice in summed RSS.
#   - paging: a click in the middle of the window (focus), then Page Down PAGE_KEYS times
#     (default 1600: Sushi and Evince scroll a screen per key and show a page taller than the
#     screen, so 1000 pages take ~1450 keys there; quire turns a page per key) with
#     PAGE_DELAY_MS between keys (default 15), then End; RSS is read 2 s after the last key.
# With QUIRE_LOOK_TRACE, quire-look also says where its time went (printed per run).
# A benchmark, not a test: it prints figures and never fails on a number.
set -uo pipefail
QUIRE=${1:?usage: $0 QUIRE [RUNS] [FILE]}
RUNS=${2:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FILE=${3:-$ROOT/Samples/generated/thousand-pages.pdf}
PAGE_KEYS=${PAGE_KEYS:-1600}
PAGE_DELAY_MS=${PAGE_DELAY_MS:-15}
SUSHI=/usr/libexec/org.gnome.NautilusPreviewer
QUIRE=$(cd "$(dirname "$QUIRE")" && pwd)/$(basename "$QUIRE")
FILE=$(cd "$(dirname "$FILE")" && pwd)/$(basename "$FILE")

for tool in Xvfb xdotool gdbus evince cc; do
    command -v "$tool" >/dev/null || { echo "look-window-bench: $tool is not installed" >&2; exit 69; }
done
[ -x "$SUSHI" ] || { echo "look-window-bench: gnome-sushi is not installed" >&2; exit 69; }
[ -f "$FILE" ] || { echo "look-window-bench: no $FILE (make samples)" >&2; exit 66; }

WORK=$(mktemp -d /tmp/quire-look-bench.XXXXXX)
BED=$WORK/bed
cleanup() {
    [ -n "${VIEWER_PIDS:-}" ] && kill $VIEWER_PIDS 2>/dev/null
    "$ROOT/Tests/Support/x11-testbed.sh" stop "$BED" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
cc -O2 "$ROOT/bench/window-probe.c" -o "$WORK/window-probe" -lX11 -lXext || exit 70
# The floor: a bare GTK 4 window that paints a red rectangle (bench/floors/gtk4-window-floor.c).
cc -O2 "$ROOT/bench/floors/gtk4-window-floor.c" -o "$WORK/gtk4-window-floor" $(pkg-config --cflags --libs gtk4) 2>/dev/null || exit 70
cat "$FILE" > /dev/null
URI="file://$FILE"
NAME=$(basename "$FILE")

# The pid and all its descendants.
tree() {
    local pid=$1 child
    echo "$pid"
    for child in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do tree "$child"; done
}
# Total VmRSS (kB) of a process tree.
rss_kb() {
    local total=0 pid kb
    for pid in $(tree "$1"); do
        kb=$(awk '/^VmRSS/ {print $2}' /proc/"$pid"/status 2>/dev/null)
        total=$((total + ${kb:-0}))
    done
    echo "$total"
}
# Total PSS (kB) of a process tree: shared pages divided among the processes that map them
# (printed beside RSS for transparency; the goal is on RSS).
pss_kb() {
    local total=0 pid kb
    for pid in $(tree "$1"); do
        kb=$(awk '/^Pss:/ {print $2}' /proc/"$pid"/smaps_rollup 2>/dev/null)
        total=$((total + ${kb:-0}))
    done
    echo "$total"
}
mb() { awk -v kb="$1" 'BEGIN { printf "%.1f", kb / 1024 }'; }

start_bed() {
    "$ROOT/Tests/Support/x11-testbed.sh" stop "$BED" 2>/dev/null
    rm -rf "$BED"
    # Sushi and Evince's daemon are started by D-Bus activation, as on a desktop.
    QUIRE_TESTBED_SERVICES="org.gnome.NautilusPreviewer org.gnome.evince.Daemon" \
    "$ROOT/Tests/Support/x11-testbed.sh" start "$BED" >/dev/null || { echo "look-window-bench: no X test bed" >&2; exit 70; }
    set -a; . "$BED/env"; set +a
    # No accessibility bus for any of the three (a private bus would start one cold for each).
    export XDG_STATE_HOME=$WORK/state XDG_CACHE_HOME=$WORK/cache NO_AT_BRIDGE=1 GTK_A11Y=none
}

# Runs one viewer once; sets WINDOW_MS PAGE_MS VIEWER_PID START_MS.
launch() {
    local viewer=$1 out
    case $viewer in
    quire) out=$(QUIRE_LOOK_TRACE=$WORK/trace "$WORK/window-probe" -t 60 -- "$QUIRE" look --no-resume "$FILE") ;;
    sushi) out=$("$WORK/window-probe" -t 60 -- gdbus call --session --dest org.gnome.NautilusPreviewer \
                 --object-path /org/gnome/NautilusPreviewer --method org.gnome.NautilusPreviewer2.ShowFile "$URI" "" false) ;;
    evince) out=$("$WORK/window-probe" -t 60 -- evince "$FILE") ;;
    floor) out=$("$WORK/window-probe" -t 60 -- "$WORK/gtk4-window-floor") ;;
    esac
    WINDOW_MS=$(sed -n 's/.*window_ms=\([-0-9]*\).*/\1/p' <<<"$out")
    PAGE_MS=$(sed -n 's/.*page_ms=\([-0-9]*\).*/\1/p' <<<"$out")
    START_MS=$(sed -n 's/.*start_ms=\([0-9.]*\).*/\1/p' <<<"$out")
    VIEWER_PID=$(sed -n 's/.*pid=\([0-9]*\).*/\1/p' <<<"$out")
    if [ "$viewer" = sushi ]; then
        VIEWER_PID=$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
            --method org.freedesktop.DBus.GetConnectionUnixProcessID org.gnome.NautilusPreviewer 2>/dev/null | sed -n 's/.*uint32 \([0-9]*\).*/\1/p')
    fi
    VIEWER_PIDS=$VIEWER_PID
}

stop_viewer() {
    [ -n "${VIEWER_PID:-}" ] && kill "$VIEWER_PID" 2>/dev/null
    for _ in $(seq 1 40); do [ -d /proc/"$VIEWER_PID" ] || break; sleep 0.05; done
    VIEWER_PIDS=
}

# median, min–max of numbers on stdin
summary() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "n/a"; exit } m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%d (%d–%d)", m, v[1], v[NR] }'; }

echo "== quire look window vs GNOME Sushi (ShowFile) vs Evince: $NAME, Xvfb 1280x900, $RUNS cold starts each =="
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A WINDOWS PAGES FIRST_RSS FIRST_PSS
for viewer in quire sushi evince floor; do
    WINDOWS[$viewer]=""; PAGES[$viewer]=""; FIRST_RSS[$viewer]=""; FIRST_PSS[$viewer]=""
    for run in $(seq 1 "$RUNS"); do
        start_bed
        rm -f "$WORK/trace"
        launch "$viewer"
        sleep 0.3
        rss=$(rss_kb "${VIEWER_PID:-0}")
        FIRST_PSS[$viewer]+="$(pss_kb "${VIEWER_PID:-0}") "
        WINDOWS[$viewer]+="$WINDOW_MS "
        PAGES[$viewer]+="$PAGE_MS "
        FIRST_RSS[$viewer]+="$rss "
        if [ "$viewer" = quire ] && [ -s "$WORK/trace" ]; then
            echo "  quire run $run: $(awk -v s="$START_MS" '{ t = $1; $1 = ""; printf "%s +%d ms;", $0, t - s }' "$WORK/trace" | sed 's/^ //')"
        fi
        stop_viewer
    done
    echo "  $viewer: window ${WINDOWS[$viewer]}ms, first page ${PAGES[$viewer]}ms, RSS ${FIRST_RSS[$viewer]}kB, PSS ${FIRST_PSS[$viewer]}kB"
done

# One paging run per viewer: first page, then every page.
declare -A PAGED_RSS PAGING_MS PEAK
for viewer in quire sushi evince; do
    start_bed
    launch "$viewer"
    sleep 0.5
    geometry=$(xdotool search --onlyvisible --name "$NAME" getwindowgeometry --shell 2>/dev/null | tail -5)
    eval "$geometry"
    xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT / 2)) click 1
    sleep 0.3
    before=$(date +%s%N)
    xdotool key --delay "$PAGE_DELAY_MS" --repeat "$PAGE_KEYS" Next
    xdotool key End
    PAGING_MS[$viewer]=$(( ($(date +%s%N) - before) / 1000000 ))
    sleep 2
    PAGED_RSS[$viewer]=$(rss_kb "$VIEWER_PID")
    peak=0
    for pid in $(tree "$VIEWER_PID"); do
        kb=$(awk '/^VmHWM/ {print $2}' /proc/"$pid"/status 2>/dev/null); peak=$((peak + ${kb:-0}))
    done
    PEAK[$viewer]=$peak
    import -window root "$WORK/$viewer-last.png" 2>/dev/null && [ -n "${LOOK_BENCH_SHOTS:-}" ] && cp "$WORK/$viewer-last.png" "$LOOK_BENCH_SHOTS/"
    stop_viewer
done

echo
printf "%-26s %14s %18s %14s %14s %22s %8s %12s\n" "viewer" "window ms" "first page ms" "RSS page 1" "PSS page 1" "RSS after 1000 pages" "ratio" "peak (HWM)"
PAGED_RSS[floor]=0; PEAK[floor]=0
for viewer in quire sushi evince floor; do
    case $viewer in quire) label="quire look";; sushi) label="Sushi 43 (ShowFile)";; evince) label="Evince 43";;
        floor) label="floor: bare GTK 4 window";; esac
    first=$(tr ' ' '\n' <<<"${FIRST_RSS[$viewer]}" | grep . | summary | cut -d' ' -f1)
    first_pss=$(tr ' ' '\n' <<<"${FIRST_PSS[$viewer]}" | grep . | summary | cut -d' ' -f1)
    printf "%-26s %14s %18s %11s MB %11s MB %19s MB %8s %9s MB\n" "$label" \
        "$(tr ' ' '\n' <<<"${WINDOWS[$viewer]}" | grep -v '^-' | grep . | summary)" \
        "$(tr ' ' '\n' <<<"${PAGES[$viewer]}" | grep -v '^-' | grep . | summary)" \
        "$(mb "$first")" "$(mb "$first_pss")" "$(mb "${PAGED_RSS[$viewer]}")" \
        "$(awk -v a="${PAGED_RSS[$viewer]}" -v b="$first" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "n/a" }')" \
        "$(mb "${PEAK[$viewer]}")"
done
q_page=$(tr ' ' '\n' <<<"${PAGES[quire]}" | grep -v '^-' | grep . | summary | cut -d' ' -f1)
s_page=$(tr ' ' '\n' <<<"${PAGES[sushi]}" | grep -v '^-' | grep . | summary | cut -d' ' -f1)
s_rss=$(tr ' ' '\n' <<<"${FIRST_RSS[sushi]}" | grep . | summary | cut -d' ' -f1)
q_rss=$(tr ' ' '\n' <<<"${FIRST_RSS[quire]}" | grep . | summary | cut -d' ' -f1)
echo "goals: first page <= 300 ms (quire: $q_page ms); ahead of Sushi (Sushi: $s_page ms);" \
     "RSS <= half of Sushi's ($(mb "$q_rss") vs $(mb "$s_rss") MB = $(awk -v a="$q_rss" -v b="$s_rss" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "n/a" }'));" \
     "RSS after 1000 pages <= 1.5x page 1 (see ratio)"
echo "paging time (keys sent, ms): quire ${PAGING_MS[quire]}, sushi ${PAGING_MS[sushi]}, evince ${PAGING_MS[evince]}"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
