#!/bin/bash
# A print server that accepts connections and never answers (issue 41, item 6): how long
# `quire can-print FILE` and `quire actions FILE` take to say "the print system does not answer"
# (issue 41's figure: within 2 s), RUNS runs each, wall time median (min–max). The listener is a
# loopback socket that listens and never accepts (the kernel completes the connections).
#
#   bench/silent-server-bench.sh QUIRE [RUNS]
#
# A benchmark, not a test: it prints figures and never fails on a number
# (Tests/QuireCLITests/SilentPrintServerTests.swift checks the behaviour).
set -uo pipefail
QUIRE=${1:?usage: $0 QUIRE [RUNS]}
RUNS=${2:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FILE=$ROOT/Samples/generated/document.pdf
[ -f "$FILE" ] || { echo "silent-server-bench: run make samples first" >&2; exit 69; }
WORK=$(mktemp -d /tmp/quire-silent-bench.XXXXXX)
python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(128)
open(sys.argv[1], "w").write(str(s.getsockname()[1])); sys.stdout.flush()
time.sleep(600)' "$WORK/port" &
listener=$!
trap 'kill $listener 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 50); do [ -s "$WORK/port" ] && break; sleep 0.1; done
export CUPS_SERVER=127.0.0.1:$(cat "$WORK/port") NO_COLOR=1
unset LPDEST PRINTER

now() { date +%s%N; }
stats() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%.0f ms (%.0f–%.0f)", v[int((NR + 1) / 2)] / 1000, v[1] / 1000, v[NR] / 1000 }'; }
echo "a print server that accepts and never answers, $RUNS runs each (bound: within 2 s):"
for command in can-print actions; do
    times=()
    for run in $(seq 1 "$RUNS"); do
        start=$(now)
        output=$("$QUIRE" "$command" "$FILE" 2>&1)
        status=$?
        end=$(now)
        # can-print answers by its status alone (1: printing cannot work now); actions says why.
        if [ "$command" = can-print ]; then
            [ "$status" = 1 ] || { echo "silent-server-bench: can-print exited $status, not 1" >&2; exit 70; }
        else
            grep -q "does not answer" <<<"$output" || { echo "silent-server-bench: actions did not say the server does not answer: $output" >&2; exit 70; }
        fi
        times+=($(( (end - start) / 1000 )))
    done
    printf '  quire %-10s %s\n' "$command" "$(stats "${times[@]}")"
done
