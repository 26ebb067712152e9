#!/bin/bash
# Usage: bench/nautilus-space-bench.sh QUIRE [RUNS]
# Space in Nautilus 43 → Quire's window, end to end with the real client (make desktop-test's
# recipe: Xvfb, a private session bus that activates only Quire's previewer file, Nautilus with
# settings in memory). Times from Nautilus's ShowFile call (dbus-monitor's timestamp) to Quire's
# window being mapped (xdotool, polled every 20 ms):
#   cold — nothing runs: D-Bus activation starts `quire look --service`;
#   warm — the service runs (after Close), the next file is selected and Space pressed.
# Prints one row per run and the medians. A benchmark, not a test: it never fails on a number.
set -u
Q=$(realpath "${1:?usage: $0 QUIRE [RUNS]}"); RUNS=${2:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
for tool in nautilus Xvfb xdotool dbus-monitor gdbus bc; do
    command -v $tool >/dev/null || { echo "needs $tool (make desktop-test installs nautilus)" >&2; exit 1; }
done
D=$(mktemp -d /tmp/quire-nautilus-bench.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$D"; }
trap cleanup EXIT
mkdir -p "$D"/{data/dbus-1/services,system,home,config,cache,runtime}; chmod 700 "$D/runtime"
cat > "$D/session.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=$D/bus</listen><servicedir>$D/data/dbus-1/services</servicedir>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
CONF
dbus-daemon --config-file="$D/session.conf" --nofork --nopidfile --print-address=1 > "$D/address" & pids+=($!)
setsid Xvfb -displayfd 4 -screen 0 1280x900x24 -nolisten tcp -noreset 4>"$D/display" >/dev/null 2>&1 </dev/null & pids+=($!)
until [ -s "$D/display" ] && [ -s "$D/address" ]; do sleep 0.05; done
export DISPLAY=:$(tr -dc 0-9 < "$D/display") DBUS_SESSION_BUS_ADDRESS=unix:path=$D/bus GDK_BACKEND=x11 GSK_RENDERER=cairo
export HOME=$D/home XDG_DATA_HOME=$D/data XDG_CONFIG_HOME=$D/config XDG_CACHE_HOME=$D/cache XDG_RUNTIME_DIR=$D/runtime
export CUPS_SERVER=${CUPS_SERVER:-127.0.0.1:1} NO_COLOR=1 GTK_A11Y=none
dbus-update-activation-environment DISPLAY GDK_BACKEND GSK_RENDERER GTK_A11Y
XDG_DATA_DIRS=$D/system "$Q" integrate install --no-thumbnailer --previewer >/dev/null
dbus-monitor "interface='org.gnome.NautilusPreviewer2'" > "$D/monitor" 2>/dev/null & pids+=($!)

calls() { grep -c "member=ShowFile" "$D/monitor"; }
# Presses Space (with MOVE first, if given) until Nautilus calls ShowFile — a press before the
# folder has loaded and the file is selected does nothing — then waits for NAME's window.
space() {
    local name=$1 move=${2:-} before
    xdotool windowfocus --sync "$W"
    [ -n "$move" ] && xdotool key "$move"
    before=$(calls)
    until [ "$(calls)" -gt "$before" ]; do
        xdotool key space
        for _ in $(seq 30); do sleep 0.1; [ "$(calls)" -gt "$before" ] && break; done
    done
    local t0; t0=$(grep "member=ShowFile" "$D/monitor" | tail -1 | sed 's/.*time=\([0-9.]*\).*/\1/')
    until xdotool search --onlyvisible --name "^${name//./\\.}\$" >/dev/null 2>&1; do sleep 0.02; done
    echo "($(date +%s.%N) - $t0) * 1000" | bc -l | cut -d. -f1
}
close() {
    gdbus call --session --dest org.gnome.NautilusPreviewer --object-path /org/gnome/NautilusPreviewer \
        --method org.gnome.NautilusPreviewer2.Close >/dev/null 2>&1
}
owner() {
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.GetConnectionUnixProcessID org.gnome.NautilusPreviewer 2>/dev/null | sed 's/.*uint32 \([0-9]*\).*/\1/'
}
cold=(); warm=()
for i in $(seq 1 "$RUNS"); do
    # A fresh Nautilus on a folder of two files, the first selected.
    mkdir -p "$D/run-$i"
    cp "$ROOT/Samples/generated/document.pdf" "$D/run-$i/a-cold-$i.pdf"
    cp "$ROOT/Samples/generated/document.pdf" "$D/run-$i/b-warm-$i.pdf"
    GSETTINGS_BACKEND=memory GIO_USE_VFS=local GTK_A11Y=none nautilus --new-window --select "$D/run-$i/a-cold-$i.pdf" >/dev/null 2>&1 &
    nautilus_pid=$!; pids+=($nautilus_pid)
    W=$(xdotool search --sync --onlyvisible --name "^run-$i\$" | head -1)
    c=$(space "a-cold-$i.pdf"); close; sleep 0.5
    w=$(space "b-warm-$i.pdf" Right); close
    cold+=("$c"); warm+=("$w")
    echo "run $i: cold ${c} ms, warm ${w} ms (load $(cut -d' ' -f1 /proc/loadavg))"
    pid=$(owner); [ -n "$pid" ] && kill "$pid" 2>/dev/null
    while [ -n "$(owner)" ]; do sleep 0.1; done
    kill "$nautilus_pid"; wait "$nautilus_pid" 2>/dev/null
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "Space → Quire window (Nautilus 43, $Q, median of $RUNS): cold $(median "${cold[@]}") ms, warm $(median "${warm[@]}") ms; load $(cut -d' ' -f1-3 /proc/loadavg)"
