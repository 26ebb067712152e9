#!/bin/bash
# A private graphical session for window tests: a session dbus-daemon and an Xvfb server.
#
#   x11-testbed.sh start DIR    start both; writes DIR/env (shell syntax: DISPLAY,
#                               DBUS_SESSION_BUS_ADDRESS, GDK_BACKEND=x11, GSK_RENDERER=cairo)
#   x11-testbed.sh stop DIR     stop exactly the processes started for DIR
#
# The display number is chosen by Xvfb itself (-displayfd), so beds run side by side. The
# bus activates only the accessibility bus and dconf (and the installed services a benchmark
# names in QUIRE_TESTBED_SERVICES, its baselines); its activation environment gets the display,
# so that what it starts can open windows.
# Needs (Debian): xvfb dbus-daemon at-spi2-core (as root).
set -euo pipefail

die() { echo "x11-testbed: $*" >&2; exit 1; }
mode=${1:-}
dir=${2:-}
[ -n "$mode" ] && [ -n "$dir" ] || die "usage: $0 start|stop DIR"

# free_port, wait_port, alive
. "$(dirname "$0")/testbed-common.sh"

stop_bed() {
    local pidfile pid
    for pidfile in "$dir"/xvfb.pid "$dir"/dbus.pid; do
        [ -f "$pidfile" ] || continue
        pid=$(cat "$pidfile")
        if [ -n "$pid" ] && alive "$pid"; then
            kill -TERM "$pid" 2>/dev/null || true
            for _ in $(seq 1 40); do alive "$pid" || break; sleep 0.05; done
            alive "$pid" && kill -KILL "$pid" 2>/dev/null || true
        fi
        rm -f "$pidfile"
    done
}

case "$mode" in
start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    command -v Xvfb >/dev/null || die "Xvfb is not installed (Debian: xvfb)"
    # The session bus, on a socket of its own. It activates only what a window test needs from
    # the system — the accessibility bus (AT-SPI) and dconf (GSettings) — from a service
    # directory of its own: whatever else the machine has installed (xdg-desktop-portal, a
    # quire under /usr/local, Sushi, tumbler) is absent, and a test that wants a desktop
    # service starts its stand-in on this bus.
    # A benchmark's baselines (Sushi, Evince's daemon) are added by name with
    # QUIRE_TESTBED_SERVICES; the tests never set it.
    mkdir -p "$dir/services"
    for service in org.a11y.Bus ca.desrt.dconf ${QUIRE_TESTBED_SERVICES:-}; do
        if [ -f "/usr/share/dbus-1/services/$service.service" ]; then
            cp "/usr/share/dbus-1/services/$service.service" "$dir/services/"
        fi
    done
    address="unix:path=$dir/bus"
    cat > "$dir/session.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>$address</listen>
  <servicedir>$dir/services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
    dbus-daemon --config-file="$dir/session.conf" --fork --nopidfile \
        --print-pid=3 3>"$dir/dbus.pid" >/dev/null 2>"$dir/dbus.log" || die "dbus-daemon did not start"
    # Xvfb picks a free display and writes its number to the descriptor. The screen is
    # 1280x900 unless QUIRE_XVFB_SCREEN says otherwise (WIDTHxHEIGHT: a small laptop screen).
    rm -f "$dir/display"
    setsid Xvfb -displayfd 4 -screen 0 "${QUIRE_XVFB_SCREEN:-1280x900}x24" -nolisten tcp -noreset \
        4>"$dir/display" >"$dir/xvfb.log" 2>&1 < /dev/null &
    echo $! > "$dir/xvfb.pid"
    for _ in $(seq 1 200); do
        [ -s "$dir/display" ] && break
        alive "$(cat "$dir/xvfb.pid")" || { stop_bed; die "Xvfb exited: $(tail -3 "$dir/xvfb.log")"; }
        sleep 0.05
    done
    [ -s "$dir/display" ] || { stop_bed; die "Xvfb did not report its display"; }
    display=":$(head -1 "$dir/display" | tr -dc 0-9)"
    DBUS_SESSION_BUS_ADDRESS=$address DISPLAY=$display GDK_BACKEND=x11 GSK_RENDERER=cairo \
        dbus-update-activation-environment DISPLAY GDK_BACKEND GSK_RENDERER \
        || { stop_bed; die "cannot set the bus's activation environment"; }
    cat > "$dir/env" <<ENV
DISPLAY=$display
DBUS_SESSION_BUS_ADDRESS=$address
GDK_BACKEND=x11
GSK_RENDERER=cairo
ENV
    ;;
stop)
    stop_bed
    ;;
*)
    die "unknown mode $mode"
    ;;
esac
