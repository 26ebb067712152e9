#!/bin/bash
# Issue 27's window figure: "first frame of a video or the specimen of a font on screen
# ≤ 300 ms warm", in the real GTK window (quire look) under Xvfb.
#
#   bench/media-window-bench.sh QUIRE [RUNS]
#
# What a user does: the window is open on one file (a picture) with the next file beside it,
# and the user presses Right (the next-file key). The worker is warm — started, sandboxed and
# busy with the picture before — so the time is the next file's open (GStreamer's discoverer
# and the poster frame, or fontconfig and the specimen's layout) plus the page on screen.
# Each run starts `quire look --no-resume picture.png TARGET`, waits for the picture, clicks in
# the window (focus) and then times, with bench/window-probe.c, from `xdotool key Right` to
# the first screen grab (every 10 ms) that shows the target's pixels:
#   - video: a VP8 clip (320×240) whose left half is pure red (the right half colour bars, so
#     the poster is its first candidate frame): ≥ 2000 red pixels that were not red before;
#   - font: DejaVu Sans's specimen: ≥ 5000 dark pixels (glyph ink, within 60 of black) that
#     were not dark before (the header's title text changes too, a few hundred pixels).
# The clock includes starting xdotool (a few ms), so the figures err high. Two kinds of warm:
# "after a picture" (the worker loads GStreamer or fontconfig's private configuration on first
# use) and "after another of its kind" (picture → a first video/font → the timed one; the first
# is a clip with a blue half, Nimbus Sans from fonts-urw-base35).
# Last, the previewer service's warm path (Nautilus's Space, then the selection moving on):
# previewer-video and previewer-font, timed from the D-Bus ShowFile call (see previewer_run).
# A benchmark, not a test: it prints medians and the bar, and never fails on a number.
set -uo pipefail
QUIRE=${1:?usage: $0 QUIRE [RUNS]}
RUNS=${2:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
QUIRE=$(cd "$(dirname "$QUIRE")" && pwd)/$(basename "$QUIRE")
FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
FONT2=/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf

for tool in Xvfb xdotool cc gst-launch-1.0 python3; do
    command -v "$tool" >/dev/null || { echo "media-window-bench: $tool is not installed" >&2; exit 69; }
done
[ -f "$FONT" ] || { echo "media-window-bench: no $FONT (fonts-dejavu-core)" >&2; exit 69; }
[ -f "$FONT2" ] || { echo "media-window-bench: no $FONT2 (fonts-urw-base35)" >&2; exit 69; }

. "$ROOT/bench/lib/window-bench.sh"
window_bench_start media-window-bench

# The samples: a light picture (no red, no dark pixels), clips with a red and a blue half, two fonts.
python3 - "$WORK/picture.png" <<'PY'
import struct, sys, zlib
width, height = 640, 480
raw = b"".join(b"\0" + bytes((200, 220, 240)) * width for _ in range(height))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                               + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
PY
for clip in red:0xffff0000 blue:0xff0000ff; do
    gst-launch-1.0 -q compositor name=m sink_1::xpos=160 ! video/x-raw,width=320,height=240 ! videoconvert \
        ! vp8enc deadline=1 ! webmmux ! filesink location="$WORK/${clip%%:*}.webm" \
        videotestsrc num-buffers=100 pattern=solid-color foreground-color=${clip#*:} ! video/x-raw,width=320,height=240,framerate=25/1 ! m. \
        videotestsrc num-buffers=100 pattern=smpte ! video/x-raw,width=160,height=240,framerate=25/1 ! m. \
        || { echo "media-window-bench: cannot make the clip" >&2; exit 70; }
done
cp "$FONT" "$WORK/font-1.ttf"; cp "$FONT2" "$WORK/font-2.otf"
cat "$WORK"/* > /dev/null 2>&1

window_bench_display media-window-bench

# One run: quire look FILES..., Right (PRESSES-1) times untimed, then the timed Right.
# Prints the milliseconds (or -1).
run() {
    local colour=$1 tolerance=$2 minimum=$3 presses=$4; shift 4
    "$QUIRE" look --no-resume "$@" >/dev/null 2>&1 &
    VIEWER_PID=$!
    local window
    window=$(wait_window "picture.png")
    [ -n "$window" ] || { echo -1; stop_viewer; return; }
    sleep 1
    eval "$(xdotool getwindowgeometry --shell "$window" 2>/dev/null | tail -5)"
    xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT / 2)) click 1
    for _ in $(seq 2 "$presses"); do xdotool key Right; sleep 1.5; done
    sleep 0.3
    local out
    out=$("$WORK/window-probe" -b -c "$colour" -d "$tolerance" -r "$minimum" -t 10 -- xdotool key Right)
    [ -n "${MEDIA_WINDOW_SHOTS:-}" ] && import -window root "$MEDIA_WINDOW_SHOTS/media-window-$colour-$presses.png" 2>/dev/null
    page_ms <<<"$out"
    stop_viewer
}

# The same through the previewer service (`quire look --service`), the way Nautilus asks for
# it: ShowFile(picture), and once the picture is on screen, ShowFile(TARGET) — what Nautilus
# sends when the selection moves while the previewer is open. The service and its worker stay
# warm between runs, as they do between a user's Space presses. Prints the milliseconds.
previewer_run() {
    local colour=$1 tolerance=$2 minimum=$3 first=$4 target=$5
    ensure_previewer
    show_file "$first"
    local window
    window=$(wait_window "$(basename "$first")")
    [ -n "$window" ] || { echo -1; return; }
    sleep 1
    local out
    out=$("$WORK/window-probe" -b -c "$colour" -d "$tolerance" -r "$minimum" -t 10 -- gdbus call --session \
        --dest org.gnome.NautilusPreviewer --object-path /org/gnome/NautilusPreviewer \
        --method org.gnome.NautilusPreviewer2.ShowFile "file://$target" "" false)
    page_ms <<<"$out"
}

# Started here, not in the $(…) of a run: its process id then stays known (and it is stopped).
ensure_previewer

echo "== quire look: the next file on screen after Right, warm worker, Xvfb 1280x900, $RUNS runs each =="
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A TIMES
CASES="video-after-picture video-after-video font-after-picture font-after-font previewer-video previewer-font"
for case in $CASES; do
    TIMES[$case]=""
    for _ in $(seq 1 "$RUNS"); do
        case $case in
        video-after-picture) ms=$(run ff0000 40 2000 1 "$WORK/picture.png" "$WORK/red.webm") ;;
        video-after-video) ms=$(run ff0000 40 2000 2 "$WORK/picture.png" "$WORK/blue.webm" "$WORK/red.webm") ;;
        font-after-picture) ms=$(run 000000 60 5000 1 "$WORK/picture.png" "$WORK/font-1.ttf") ;;
        font-after-font) ms=$(run 000000 60 5000 2 "$WORK/picture.png" "$WORK/font-2.otf" "$WORK/font-1.ttf") ;;
        previewer-video) ms=$(previewer_run ff0000 40 2000 "$WORK/picture.png" "$WORK/red.webm") ;;
        previewer-font) ms=$(previewer_run 000000 60 5000 "$WORK/picture.png" "$WORK/font-1.ttf") ;;
        esac
        TIMES[$case]+="${ms:--1} "
    done
done
for case in $CASES; do
    printf "  %-22s %s   [runs: %s]\n" "$case" "$(tr ' ' '\n' <<<"${TIMES[$case]}" | grep . | summary)" "${TIMES[$case]% }"
done
echo "goal: first frame of a video / the specimen of a font on screen <= 300 ms warm (the medians above)"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
