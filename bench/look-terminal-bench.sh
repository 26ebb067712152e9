#!/bin/bash
# Usage: bench/look-terminal-bench.sh QUIRE FILE [extra look args] — time to first page and RSS after paging, in tmux 100x40.
Q=$1; F=$2; shift 2
T="tmux -L t17m"
$T kill-server 2>/dev/null
start=$(date +%s%N)
$T -f /dev/null new-session -d -x 100 -y 40 "$Q" look --no-resume "$@" "$F"
until $T capture-pane -p 2>/dev/null | grep -q "page 1 of"; do sleep 0.005; done
end=$(date +%s%N)
echo "first page: $(( (end-start)/1000000 )) ms"
P=$($T display -p '#{pane_pid}')
rss() { local total=0; for p in $P $(cat /proc/$P/task/*/children 2>/dev/null); do r=$(awk '/VmRSS/{print $2}' /proc/$p/status); total=$((total + r)); echo -n "pid $p ${r} kB; "; done; echo "total ${total} kB"; }
echo -n "RSS after page 1: "; rss
s2=$(date +%s%N)
for i in $(seq 1 10); do $T send-keys -N 20 PageDown; sleep 0.05; done
until $T capture-pane -p | grep -q "page 201 of"; do sleep 0.01; done
e2=$(date +%s%N)
echo "200 pages: $(( (e2-s2)/1000000 )) ms"
echo -n "RSS after page 201: "; rss
$T send-keys q; sleep 0.3; $T kill-server 2>/dev/null
