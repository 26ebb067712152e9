# Shared by the window benchmarks that time a file on screen with bench/window-probe.c under
# Xvfb (bench/media-window-bench.sh, bench/office-window-bench.sh, bench/animation-bench.sh). Source it after setting
# ROOT (the repository) and QUIRE (the binary); call window_bench_start NAME first.

# A work directory ($WORK), an X test bed ($BED, its environment exported) and the probe
# ($WORK/window-probe); the viewer ($VIEWER_PID), the previewer service ($SERVICE_PID), the bed
# and the directory go when the script ends.
window_bench_start() {
    local name=$1
    WORK=$(mktemp -d "/tmp/quire-$name.XXXXXX")
    BED=$WORK/bed
    VIEWER_PID=
    SERVICE_PID=
    trap window_bench_cleanup EXIT
    cc -O2 "$ROOT/bench/window-probe.c" -o "$WORK/window-probe" -lX11 -lXext || exit 70
}

# The X bed, once the samples are made: Xvfb, a session bus (that starts Sushi and Evince's
# daemon by D-Bus activation, as on a desktop), and no accessibility bridge.
window_bench_display() {
    QUIRE_TESTBED_SERVICES="org.gnome.NautilusPreviewer org.gnome.evince.Daemon" "$ROOT/Tests/Support/x11-testbed.sh" start "$BED" >/dev/null || { echo "$1: no X test bed" >&2; exit 70; }
    set -a; . "$BED/env"; set +a
    export XDG_STATE_HOME=$WORK/state XDG_CACHE_HOME=$WORK/cache NO_AT_BRIDGE=1 GTK_A11Y=none
}

window_bench_cleanup() {
    [ -n "${VIEWER_PID:-}" ] && kill "$VIEWER_PID" 2>/dev/null
    [ -n "${SERVICE_PID:-}" ] && kill "$SERVICE_PID" 2>/dev/null
    "$ROOT/Tests/Support/x11-testbed.sh" stop "$BED" 2>/dev/null
    rm -rf "$WORK"
}

# The previewer service (`quire look --service`), started once and kept warm, as between a
# user's Space presses; returns when it owns its bus name.
ensure_previewer() {
    if [ -z "$SERVICE_PID" ] || ! kill -0 "$SERVICE_PID" 2>/dev/null; then
        "$QUIRE" look --service --idle-timeout 300 >/dev/null 2>&1 &
        SERVICE_PID=$!
        for _ in $(seq 1 100); do
            gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
                --method org.freedesktop.DBus.NameHasOwner org.gnome.NautilusPreviewer 2>/dev/null | grep -q true && break
            sleep 0.05
        done
    fi
}

# The id of the visible window whose name matches NAME, once there is one (up to 10 s); empty
# when none came.
wait_window() {
    local window=
    for _ in $(seq 1 200); do
        window=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -1)
        [ -n "$window" ] && break
        sleep 0.05
    done
    echo "$window"
}

# Ends the viewer a run started (VIEWER_PID).
stop_viewer() { [ -n "${VIEWER_PID:-}" ] && { kill "$VIEWER_PID" 2>/dev/null; wait "$VIEWER_PID" 2>/dev/null; }; VIEWER_PID=; }

# Nautilus's call: show FILE in the previewer.
show_file() {
    gdbus call --session --dest org.gnome.NautilusPreviewer --object-path /org/gnome/NautilusPreviewer \
        --method org.gnome.NautilusPreviewer2.ShowFile "file://$1" "" false >/dev/null 2>&1
}

# page_ms=N from window-probe's line.
page_ms() { sed -n 's/.*page_ms=\([-0-9]*\).*/\1/p'; }

# median, min–max of the numbers on stdin (a failed run, -1, is counted apart)
summary() { sort -n | awk '$1 >= 0 { v[++n] = $1 } $1 < 0 { failed++ } END { if (n == 0) { print "n/a"; exit } m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2; printf "%d ms (%d–%d)", m, v[1], v[n]; if (failed) printf ", %d runs never showed it", failed }'; }

# the median alone (-1 when no run succeeded)
median() { sort -n | awk '$1 >= 0 { v[++n] = $1 } END { if (n == 0) { print -1; exit } print (n % 2) ? v[(n + 1) / 2] : int((v[n / 2] + v[n / 2 + 1]) / 2) }'; }
