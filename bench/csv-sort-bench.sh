#!/bin/bash
# Usage: bench/csv-sort-bench.sh QUIRE [ROWS] — the whole-file sort and find of `quire look
# --terminal` (tmux 120x40) on bench/csv-bench.sh's CSV of ROWS rows (default 10 million, about
# 1 GB; written by that script into $TMPDIR/quire-csv-bench, run it first): the time from `s`
# until the first row of the sorted order is on screen (by id, descending: the file's last row
# first; then by height, a decimal column), G in the sorted order, `/` for a name that is only
# on the file's next-to-last row (past the first window: found by the worker), and the peak RSS
# (viewer and its children) at the end. Prints numbers; never fails on one.
set -u
Q=$1; ROWS=${2:-10000000}
F=${TMPDIR:-/tmp}/quire-csv-bench/rows-$ROWS.csv
if [ ! -s "$F" ]; then echo "csv-sort-bench: no $F (run bench/csv-bench.sh $Q $ROWS first)"; exit 0; fi
echo "file: $F ($(stat -c %s "$F") bytes, $ROWS rows)"
cat "$F" > /dev/null
T="tmux -L quire-csv-sort-bench"
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
# until TEXT [SECONDS]: waits for TEXT on screen; prints the ms it took from $START, or "not in N s".
until_shown() {
    local limit=${2:-300}
    while ! $T capture-pane -p | grep -qF -- "$1"; do
        sleep 0.02
        if [ $(( ($(now) - START) / 1000000000 )) -ge "$limit" ]; then echo "not in $limit s ($($T capture-pane -p | grep -v '^$' | tail -1 | cut -c1-100))"; return; fi
    done
    echo "$(( ($(now) - START) / 1000000 )) ms"
}
$T kill-server 2>/dev/null
$T -f /dev/null new-session -d -x 120 -y 40 "$Q" look --terminal --no-resume "$F"
START=$(now); echo "first screen: $(until_shown 'Person-00000001' 60)"
PID=$($T display -p '#{pane_pid}')
LAST=$(printf 'Person-%08d' "$ROWS")
$T send-keys s; START=$(now); echo "s (by id, ascending): $(until_shown 'sorted by id ↑')"
$T send-keys s; START=$(now); echo "s again (by id, descending; the last row first): $(until_shown "$LAST")"
$T send-keys l l l; sleep 1
$T send-keys s; START=$(now); echo "s (by height, a decimal column): $(until_shown 'sorted by height ↑')"
$T send-keys G; START=$(now); echo "G in that order: $(until_shown "row $(echo "$ROWS" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta') of")"
$T send-keys g h h h; sleep 1
WANTED=$(printf 'Person-%08d' $((ROWS - 1)))
$T send-keys / ; sleep 0.3; $T send-keys -l "$WANTED"; $T send-keys Enter
START=$(now); echo "find $WANTED (the next-to-last row of the file): $(until_shown "/$WANTED: 1 of 1")"
echo "peak RSS (viewer + worker): $(peak "$PID")"
$T kill-server 2>/dev/null
exit 0
