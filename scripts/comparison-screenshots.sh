#!/usr/bin/env bash
# Screenshots of the same files in Quire's window, GNOME Sushi 43 (Nautilus's Space, through
# its D-Bus ShowFile) and Evince 43 (where it opens the file), each on a fresh Xvfb session
# (Tests/Support/x11-testbed.sh), cropped to the window, halved and written as 8-bit PNGs, for docs/comparison/.
#
#   scripts/comparison-screenshots.sh [QUIRE [OUTDIR]]
#       QUIRE   the quire binary (default .build/debug/quire)
#       OUTDIR  where the PNGs go (default docs/comparison)
#
# Needs (Debian): xvfb xdotool imagemagick dbus gnome-sushi evince (make's DEB_BENCH has them).
# Files are passed to each program as arguments, never through a shell.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
quire=${1:-$root/.build/debug/quire}
out=${2:-$root/docs/comparison}
samples=$root/Samples/generated
sushi=/usr/libexec/org.gnome.NautilusPreviewer
for tool in Xvfb xdotool import gdbus evince; do
    command -v "$tool" >/dev/null || { echo "comparison-screenshots: $tool is not installed" >&2; exit 69; }
done
[ -x "$sushi" ] || { echo "comparison-screenshots: gnome-sushi is not installed" >&2; exit 69; }
[ -x "$quire" ] || { echo "comparison-screenshots: no quire at $quire (swift build)" >&2; exit 66; }
[ -f "$samples/document.pdf" ] || { echo "comparison-screenshots: no samples (Samples/generate.sh Samples/generated)" >&2; exit 66; }
mkdir -p "$out"

work=$(mktemp -d /tmp/quire-comparison.XXXXXX)
viewer_pid=""
cleanup() {
    [ -n "$viewer_pid" ] && kill "$viewer_pid" 2>/dev/null || true
    "$root/Tests/Support/x11-testbed.sh" stop "$work/bed" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

# case name, file (relative to the samples), whether Evince opens it.
cases=(
    "pdf"     "document.pdf"            yes
    "photo"   "photo.jpg"               no
    "source"  "hello.c"                 no
    "archive" "archives/project.tar.gz" no
    "damaged" "truncated.pdf"           yes
)

# Starts a fresh session for one screenshot; its variables are exported.
start_bed() {
    "$root/Tests/Support/x11-testbed.sh" stop "$work/bed" >/dev/null 2>&1 || true
    rm -rf "$work/bed"
    # The session bus looks for D-Bus services in /usr/share only: a Quire installed under
    # /usr/local (make install) provides org.gnome.NautilusPreviewer too, and would answer
    # ShowFile in Sushi's place.
    XDG_DATA_HOME=$work/data XDG_DATA_DIRS=/usr/share "$root/Tests/Support/x11-testbed.sh" start "$work/bed" >/dev/null
    while IFS='=' read -r key value; do export "$key=$value"; done < "$work/bed/env"
    export XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config NO_AT_BRIDGE=1
}

# Waits for a visible window whose name matches $1; prints its id.
wait_window() {
    local id
    for _ in $(seq 1 100); do
        id=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -1 || true)
        [ -n "$id" ] && { echo "$id"; return 0; }
        sleep 0.1
    done
    return 1
}

# Screenshot of window $1, cropped to it and halved, as $2.
shoot() {
    local geometry X Y WIDTH HEIGHT
    geometry=$(xdotool getwindowgeometry --shell "$1")
    X=$(sed -n 's/^X=//p' <<<"$geometry"); Y=$(sed -n 's/^Y=//p' <<<"$geometry")
    WIDTH=$(sed -n 's/^WIDTH=//p' <<<"$geometry"); HEIGHT=$(sed -n 's/^HEIGHT=//p' <<<"$geometry")
    import -window root -crop "${WIDTH}x${HEIGHT}+${X}+${Y}" +repage -resize 50% -strip "PNG8:$2"
}

for ((i = 0; i < ${#cases[@]}; i += 3)); do
    name=${cases[i]} file=$samples/${cases[i + 1]} evince_too=${cases[i + 2]}
    base=$(basename "$file")
    pattern="^$(printf '%s' "$base" | sed 's/[.]/\\./g')"

    start_bed
    CUPS_SERVER=127.0.0.1:1 "$quire" look --no-resume "$file" >/dev/null 2>&1 &
    viewer_pid=$!
    if window=$(wait_window "$pattern"); then sleep 3; shoot "$window" "$out/$name-quire.png"; fi
    kill "$viewer_pid" 2>/dev/null || true; wait "$viewer_pid" 2>/dev/null || true; viewer_pid=""

    start_bed
    gdbus call --session --dest org.gnome.NautilusPreviewer --object-path /org/gnome/NautilusPreviewer \
        --method org.gnome.NautilusPreviewer2.ShowFile "file://$file" "" false >/dev/null
    # Sushi's window is named after the file (or has no name while it loads): its class is fixed.
    window=""
    for _ in $(seq 1 100); do
        window=$(xdotool search --onlyvisible --class "org.gnome.NautilusPreviewer" 2>/dev/null | head -1 || true)
        [ -n "$window" ] && break
        sleep 0.1
    done
    if [ -n "$window" ]; then sleep 3; shoot "$window" "$out/$name-sushi.png"; fi
    gdbus call --session --dest org.gnome.NautilusPreviewer --object-path /org/gnome/NautilusPreviewer \
        --method org.gnome.NautilusPreviewer2.Close >/dev/null 2>&1 || true

    if [ "$evince_too" = yes ]; then
        start_bed
        evince "$file" >/dev/null 2>&1 &
        viewer_pid=$!
        window=""
        for _ in $(seq 1 100); do
            window=$(xdotool search --onlyvisible --class "evince" 2>/dev/null | head -1 || true)
            [ -n "$window" ] && break
            sleep 0.1
        done
        if [ -n "$window" ]; then sleep 3; shoot "$window" "$out/$name-evince.png"; fi
        kill "$viewer_pid" 2>/dev/null || true; wait "$viewer_pid" 2>/dev/null || true; viewer_pid=""
    fi
    echo "$name: $(cd "$out" && ls "$name"-*.png | tr '\n' ' ')"
done
