#!/bin/bash
# A private CUPS test bed on loopback: dbus-daemon + cupsd + ippeveprinter + queues.
#
#   cups-testbed.sh start DIR         start everything; writes DIR/env (shell syntax)
#   cups-testbed.sh start-empty DIR   a cupsd with no printers at all
#   cups-testbed.sh start-colour DIR  the full bed plus a colour printer (quire-colour)
#   cups-testbed.sh dead DIR          no scheduler: DIR/env names a port where nothing listens
#   cups-testbed.sh reject-all DIR REASON   make every queue of a started bed reject jobs
#   cups-testbed.sh stop DIR          stop exactly the processes started for DIR
#   cups-testbed.sh stop-scheduler DIR      kill the bed's cupsd (as a crash or `systemctl stop`)
#   cups-testbed.sh start-scheduler DIR     start it again: same port, configuration and spool
#   cups-testbed.sh pause-scheduler DIR     SIGSTOP the bed's cupsd: its port still accepts
#                                           connections (the kernel's backlog), nothing answers
#   cups-testbed.sh resume-scheduler DIR    SIGCONT it
#   cups-testbed.sh admin DIR TOOL ARGS...  run a CUPS admin tool (lpadmin, cupsdisable,
#                                           cupsreject, cancel, lpstat…) against the bed
#
# DIR/env holds CUPS_SERVER=127.0.0.1:PORT, TESTBED_RECEIVED=DIR/received (one .pdf/.prn and
# one .env file per document the IPP printer received, with the job's IPP_* attributes),
# TESTBED_IPP_URI and TESTBED_QUEUES. Queues (full bed):
#   quire-office      default queue, accepting, idle
#   quire-rejecting   rejecting jobs, reason "closed for maintenance"
#   quire-stopped     accepting but stopped (disabled), reason "paper jam in tray 2"
# These three share one monochrome IPP printer (print-color-mode-supported: monochrome).
# start-colour adds:
#   quire-colour      a second IPP printer that prints in colour (ippeveprinter -s 10,8:
#                     print-color-mode-supported auto,color,monochrome), same recorder
# Needs (Debian): cups cups-client cups-ipp-utils cups-filters dbus-daemon (as root).
set -euo pipefail

die() { echo "cups-testbed: $*" >&2; exit 1; }
step() { [ -n "${TESTBED_TRACE:-}" ] && echo "$(date +%s.%N) $$ $*" >> "$TESTBED_TRACE"; return 0; }

mode=${1:-}
dir=${2:-}
[ -n "$mode" ] && [ -n "$dir" ] || die "usage: $0 start|start-empty|dead|reject-all|stop-scheduler|start-scheduler|pause-scheduler|resume-scheduler|admin|stop DIR [ARGS...]"

# free_port, wait_port, alive
. "$(dirname "$0")/testbed-common.sh"

stop_bed() {
    local pidfile pid pids=() left
    for pidfile in "$dir"/pids/*.pid; do
        [ -e "$pidfile" ] || continue
        pid=$(cat "$pidfile")
        # Only signal the process we started: same PID and still the program we ran.
        if [ -n "$pid" ] && alive "$pid" && tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF "$dir"; then
            kill "$pid" 2>/dev/null || true
            kill -CONT "$pid" 2>/dev/null || true   # a paused cupsd acts on SIGTERM only once resumed
            pids+=("$pid")
        fi
        rm -f "$pidfile"
    done
    # A caller may have started us with SIGTERM blocked (the mask is inherited through spawn),
    # so give the daemons half a second, then SIGKILL: everything they own is under DIR.
    for _ in $(seq 1 10); do
        left=0
        for pid in "${pids[@]}"; do alive "$pid" && left=1; done
        [ "$left" = 0 ] && return 0
        sleep 0.05
    done
    for pid in "${pids[@]}"; do alive "$pid" && kill -9 "$pid" 2>/dev/null || true; done
}

write_env() { # port [extra lines]
    {
        echo "CUPS_SERVER=127.0.0.1:$1"
        echo "TESTBED_DIR=$dir"
        echo "TESTBED_RECEIVED=$dir/received"
        shift
        for line in "$@"; do echo "$line"; done
    } > "$dir/env.tmp"
    mv "$dir/env.tmp" "$dir/env"
}

# Whether PID itself listens on 127.0.0.1:PORT (not some other process that took the port).
listening_pid_is() { # port pid
    if command -v ss >/dev/null 2>&1; then
        ss -Hltnp "sport = :$1" 2>/dev/null | grep -q "pid=$2,"
    else
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && kill -0 "$2" 2>/dev/null
    fi
}

# Until process PID listens on PORT itself (not some other bed's daemon that took the same
# port); fails early if the process exits (e.g. it could not bind).
wait_listener() { # pid port seconds
    local i
    for i in $(seq 1 $(( $3 * 20 ))); do
        alive "$1" || return 1
        if ss -Hltnp "sport = :$2" 2>/dev/null | grep -q "pid=$1,"; then return 0; fi
        sleep 0.05
    done
    return 1
}

start_cupsd() { # port (global: updated if cupsd had to move to another port)
    port=$1
    mkdir -p "$dir"/{etc/ppd,etc/ssl,spool/tmp,cache,state/certs,log,pids,home,received}
    chmod 0755 "$dir" "$dir"/etc "$dir"/spool
    chmod 1777 "$dir"/spool/tmp
    cat > "$dir/etc/cups-files.conf" <<EOF
ServerRoot $dir/etc
RequestRoot $dir/spool
TempDir $dir/spool/tmp
CacheDir $dir/cache
StateDir $dir/state
AccessLog $dir/log/access_log
ErrorLog $dir/log/error_log
PageLog $dir/log/page_log
FileDevice Yes
SystemGroup root
Printcap $dir/state/printcap
EOF
    local attempt pid
    for attempt in 1 2 3; do
    cat > "$dir/etc/cupsd.conf" <<EOF
LogLevel info
Listen 127.0.0.1:$port
Browsing No
WebInterface No
DefaultAuthType None
PreserveJobHistory Yes
PreserveJobFiles No
MaxJobs 1000
<Location />
  Order allow,deny
  Allow all
</Location>
<Policy default>
  JobPrivateAccess all
  JobPrivateValues none
  SubscriptionPrivateAccess all
  SubscriptionPrivateValues none
  <Limit All>
    Order deny,allow
    Allow all
  </Limit>
</Policy>
EOF
    setsid cupsd -f -c "$dir/etc/cupsd.conf" -s "$dir/etc/cups-files.conf" \
        </dev/null >>"$dir/log/cupsd.out" 2>&1 &
    pid=$!
    echo "$pid" > "$dir/pids/cupsd.pid"
    wait_listener "$pid" "$port" 30 && return 0
    # Another process took the port between choosing and binding it: move.
    alive "$pid" && kill -9 "$pid" 2>/dev/null || true
    port=$(free_port)
    done
    cat "$dir/log/error_log" >&2 2>/dev/null || true
    stop_bed
    die "cupsd did not start"
}

start_bus() {
    mkdir -p "$dir/dbus"
    cat > "$dir/dbus/system.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$dir/dbus/system_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_type="method_return"/>
    <allow send_type="signal"/>
    <allow send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="signal"/>
    <allow receive_type="error"/>
    <allow send_destination="*"/>
  </policy>
</busconfig>
EOF
    setsid dbus-daemon --nofork --config-file="$dir/dbus/system.conf" \
        </dev/null >>"$dir/log/dbus.out" 2>&1 &
    echo $! > "$dir/pids/dbus.pid"
    # Ready when it answers, not when its socket exists: the printer's DNS-SD client gives up
    # at once on a bus that does not (seen with four test processes starting beds at once).
    for _ in $(seq 1 200); do
        [ -S "$dir/dbus/system_bus_socket" ] && bus_answers && return 0
        sleep 0.05
    done
    cat "$dir/log/dbus.out" >&2
    stop_bed
    die "dbus-daemon did not start"
}

bus_answers() {
    gdbus call --address "unix:path=$dir/dbus/system_bus_socket" --dest org.freedesktop.DBus \
        --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.GetId >/dev/null 2>&1
}

# The bed's system bus again, from nothing (the printer found it unusable).
restart_bus() {
    local pid
    pid=$(cat "$dir/pids/dbus.pid" 2>/dev/null || true)
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
    rm -f "$dir/dbus/system_bus_socket" "$dir/pids/dbus.pid"
    start_bus
}

start_printer() { # ipp_port [name speed] (global ipp_port: updated if the printer had to move)
    ipp_port=$1
    local name=${2:-ippeveprinter} speed=()
    [ -n "${3:-}" ] && speed=(-s "$3")
    mkdir -p "$dir/ippspool-$name"
    [ -S "$dir/dbus/system_bus_socket" ] || start_bus

    # The print command: keep each document and the job's IPP_* attributes.
    cat > "$dir/record.sh" <<EOF
#!/bin/sh
stamp=\$(date +%s%N)-\$\$
ext=prn
case "\$CONTENT_TYPE" in application/pdf) ext=pdf ;; esac
cp "\$1" "$dir/received/\$stamp.\$ext.part" && mv "$dir/received/\$stamp.\$ext.part" "$dir/received/\$stamp.\$ext"
env | grep -E '^(IPP_|CONTENT_TYPE)' | sort > "$dir/received/\$stamp.env.part"
echo "DOCUMENT=$dir/received/\$stamp.\$ext" >> "$dir/received/\$stamp.env.part"
mv "$dir/received/\$stamp.env.part" "$dir/received/\$stamp.env"
exit 0
EOF
    chmod 0755 "$dir/record.sh"
    # Several beds may start at once (parallel suites): if the printer exits because another
    # process took its port, try again on a new one.
    local attempt pid
    for attempt in 1 2 3; do
        DBUS_SYSTEM_BUS_ADDRESS="unix:path=$dir/dbus/system_bus_socket" \
            setsid ippeveprinter -n localhost -p "$ipp_port" -k -d "$dir/ippspool-$name" -c "$dir/record.sh" \
            -2 "${speed[@]}" -f application/pdf,image/jpeg,image/pwg-raster -l "Test lab" -M Quire -m "Test Printer" \
            -r off "Quire Test Printer $name" </dev/null >>"$dir/log/$name.out" 2>&1 &
        pid=$!
        echo "$pid" > "$dir/pids/$name.pid"
        for _ in $(seq 1 600); do
            listening_pid_is "$ipp_port" "$pid" && return 0
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.05
        done
        kill -9 "$pid" 2>/dev/null || true
        ipp_port=$(free_port)
        # Its DNS-SD client could not use the bed's system bus: a new bus for the next attempt.
        if grep -q "Unable to initialize DNS-SD" "$dir/log/$name.out" 2>/dev/null || ! bus_answers; then
            echo "cups-testbed: the printer could not use the bus (attempt $attempt); restarting the bus" >>"$dir/log/$name.out"
            restart_bus
        fi
    done
    cat "$dir/log/$name.out" "$dir/log/dbus.out" >&2
    stop_bed
    die "ippeveprinter did not start"
}

add_queue() { # name uri [lpadmin args...]
    local name=$1 uri=$2
    shift 2
    lpadmin -p "$name" -E -v "$uri" -m everywhere -o outputorder-default=normal "$@" \
        || die "lpadmin failed for $name"
    # lpadmin returns before the PPD exists: wait until the queue lists its options.
    for _ in $(seq 1 200); do
        if lpoptions -p "$name" -l 2>/dev/null | grep -q .; then return 0; fi
        sleep 0.05
    done
    die "queue $name never became ready"
}

case "$mode" in
start|start-empty|start-colour)
    [ "$(id -u)" = 0 ] || die "must run as root (cupsd with a private configuration)"
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [ -e "$dir/pids/cupsd.pid" ] && stop_bed
    rm -rf "$dir/received" "$dir/spool" "$dir/etc" "$dir/cache" "$dir/state" "$dir"/ippspool-*
    port=$(free_port)
    step cupsd; start_cupsd "$port"
    export CUPS_SERVER="127.0.0.1:$port"
    if [ "$mode" != start-empty ]; then
        ipp_port=$(free_port)
        step printer; start_printer "$ipp_port"   # may move to another port: sets ipp_port
        uri="ipp://localhost:$ipp_port/ipp/print"
        step queues; add_queue quire-office "$uri" -L "Room 101" -D "Office printer"
        add_queue quire-rejecting "$uri" -D "Rejecting printer"
        add_queue quire-stopped "$uri" -D "Stopped printer"
        step default; lpadmin -d quire-office
        cupsreject -r "closed for maintenance" quire-rejecting
        cupsdisable -r "paper jam in tray 2" quire-stopped
        queues="quire-office quire-rejecting quire-stopped"
        if [ "$mode" = start-colour ]; then
            step colour; start_printer "$(free_port)" colour 10,8
            add_queue quire-colour "ipp://localhost:$ipp_port/ipp/print" -D "Colour printer"
            queues="$queues quire-colour"
        fi
        step env; write_env "$port" "TESTBED_IPP_URI=$uri" "TESTBED_QUEUES=$queues"
    else
        write_env "$port" "TESTBED_QUEUES="
    fi
    cat "$dir/env"
    ;;
dead)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    write_env "$(free_port)" "TESTBED_QUEUES="
    cat "$dir/env"
    ;;
reject-all)
    [ -f "$dir/env" ] || die "$dir is not a started test bed"
    export CUPS_SERVER=$(sed -n 's/^CUPS_SERVER=//p' "$dir/env")
    for queue in $(sed -n 's/^TESTBED_QUEUES=//p' "$dir/env"); do
        cupsreject -r "${3:-rejecting}" "$queue"
    done
    ;;
stop-scheduler)
    [ -f "$dir/env" ] || die "$dir is not a started test bed"
    dir=$(cd "$dir" && pwd)
    pid=$(cat "$dir/pids/cupsd.pid" 2>/dev/null || true)
    [ -n "$pid" ] && alive "$pid" && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF "$dir" || die "cupsd is not running"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 20); do alive "$pid" || break; sleep 0.05; done
    alive "$pid" && kill -9 "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do alive "$pid" || break; sleep 0.05; done
    alive "$pid" && die "cupsd did not stop"
    rm -f "$dir/pids/cupsd.pid"
    ;;
pause-scheduler|resume-scheduler)
    [ -f "$dir/env" ] || die "$dir is not a started test bed"
    dir=$(cd "$dir" && pwd)
    pid=$(cat "$dir/pids/cupsd.pid" 2>/dev/null || true)
    [ -n "$pid" ] && alive "$pid" && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF "$dir" || die "cupsd is not running"
    if [ "$mode" = pause-scheduler ]; then kill -STOP "$pid"; else kill -CONT "$pid"; fi
    ;;
start-scheduler)
    [ -f "$dir/env" ] || die "$dir is not a started test bed"
    dir=$(cd "$dir" && pwd)
    port=$(sed -n 's/^CUPS_SERVER=127.0.0.1://p' "$dir/env")
    setsid cupsd -f -c "$dir/etc/cupsd.conf" -s "$dir/etc/cups-files.conf" \
        </dev/null >>"$dir/log/cupsd.out" 2>&1 &
    pid=$!
    echo "$pid" > "$dir/pids/cupsd.pid"
    wait_listener "$pid" "$port" 30 || die "cupsd did not start again on port $port"
    ;;
admin)
    [ -f "$dir/env" ] || die "$dir is not a started test bed"
    export CUPS_SERVER=$(sed -n 's/^CUPS_SERVER=//p' "$dir/env")
    shift 2
    case "${1:-}" in
    lpadmin|cupsdisable|cupsenable|cupsreject|cupsaccept|cancel|lpstat|lpmove) ;;
    *) die "admin: not a CUPS admin tool: ${1:-}" ;;
    esac
    exec "$@"
    ;;
stop)
    [ -d "$dir" ] || exit 0
    dir=$(cd "$dir" && pwd)
    stop_bed
    ;;
*)
    die "unknown mode $mode (start, start-empty, start-colour, dead, reject-all, stop-scheduler, start-scheduler, pause-scheduler, resume-scheduler, admin, stop)"
    ;;
esac
