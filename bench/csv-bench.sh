#!/bin/bash
# Usage: bench/csv-bench.sh QUIRE [ROWS] — issue 38's CSV figures: a CSV of ROWS rows (default
# 10 million, about 1 GB) written once to $TMPDIR/quire-csv-bench, then, in tmux 120x40, for
# `quire look --terminal` and VisiData (`vd`, Debian's package) on the same file: the time to the
# first screen (launch until row 1 is on screen), the time to reach the last row (G pressed until
# the last row is on screen, 60 s at most) and the peak RSS (VmHWM, the viewer and its children
# summed) after that. The file is read once first (warm cache; CSV_BENCH_COLD=1 drops the page
# cache before each viewer instead). Prints numbers; never fails on one.
set -u
Q=$1; ROWS=${2:-10000000}
DIR=${TMPDIR:-/tmp}/quire-csv-bench
mkdir -p "$DIR"
F=$DIR/rows-$ROWS.csv
if [ ! -s "$F" ]; then
    python3 "$(dirname "$0")/lib/csv-rows.py" "$F.part" "$ROWS" || exit 70
    mv "$F.part" "$F"
fi
echo "file: $F ($(stat -c %s "$F") bytes, $ROWS rows)"
cat "$F" > /dev/null
FIRST=$(printf 'Person-%08d' 1)
LAST=$(printf 'Person-%08d' "$ROWS")
RUN=0

now() { date +%s%N; }
descendants() { local p; for p in $(cat /proc/"$1"/task/*/children 2>/dev/null); do echo "$p"; descendants "$p"; done; }
peak() {
    local total=0 p hwm
    for p in "$1" $(descendants "$1"); do
        hwm=$(awk '/VmHWM/{print $2}' /proc/"$p"/status 2>/dev/null)
        total=$((total + ${hwm:-0}))
    done
    echo "$((total / 1024)) MB"
}

# run NAME COMMAND...: first screen, last row, peak RSS.
run() {
    local name=$1; shift
    # A tmux server of its own each run: a server still going away from the last run would
    # take the new session down with it.
    RUN=$((RUN + 1))
    T="tmux -L quire-csv-bench-$$-$RUN"
    # CSV_BENCH_COLD=1: drop the page cache first (the whole machine's: opt-in).
    local cache="warm cache"
    if [ "${CSV_BENCH_COLD:-0}" = 1 ] && sync && (echo 3 > /proc/sys/vm/drop_caches) 2>/dev/null; then cache="cold cache"; fi
    local start end pid
    start=$(now)
    $T -f /dev/null new-session -d -x 120 -y 40 "$@"
    until $T capture-pane -p 2>/dev/null | grep -q -- "$FIRST"; do
        sleep 0.005
        if [ $(( ($(now) - start) / 1000000000 )) -ge 60 ]; then echo "$name: no first screen in 60 s"; $T kill-server; return; fi
    done
    end=$(now)
    pid=$($T display -p '#{pane_pid}')
    echo "$name: first screen $(( (end - start) / 1000000 )) ms ($cache)"
    start=$(now)
    local reached=no
    while [ $(( ($(now) - start) / 1000000000 )) -lt 60 ]; do
        $T send-keys G
        sleep 0.2
        if $T capture-pane -p | grep -q -- "$LAST"; then reached=yes; break; fi
    done
    end=$(now)
    if [ $reached = yes ]; then
        echo "$name: last row on screen after $(( (end - start) / 1000000 )) ms; peak RSS $(peak "$pid")"
    else
        echo "$name: last row ($LAST) not reached in 60 s; peak RSS $(peak "$pid"); screen's last line: $($T capture-pane -p | grep -v '^$' | tail -1)"
    fi
    $T kill-server 2>/dev/null
}

export XDG_STATE_HOME=$DIR/state CUPS_SERVER=127.0.0.1:1
unset DISPLAY WAYLAND_DISPLAY
run "quire look --terminal" "$Q" look --terminal --no-resume "$F"
if command -v vd >/dev/null 2>&1; then
    run "vd (VisiData $(vd --version 2>/dev/null | head -1 | awk '{print $2}'))" vd "$F"
else
    echo "vd: not installed (apt-get install visidata)"
fi
