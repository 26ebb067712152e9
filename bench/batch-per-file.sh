#!/usr/bin/env bash
# Per-file CPU of a batch thumbnail, quire beside mutool draw and pdftocairo: where quire wins
# and loses on a tree (CPU time, so the figures hold under load, unlike wall times).
#
#   bench/batch-per-file.sh TREE [OUT.tsv]      (e.g. /tmp/quire-batch-bench/trees/mixed)
#
# quire: `perf stat -e task-clock` of `quire thumbnail --batch --jobs 1 --no-sandbox` over a
# directory holding only that file, minus the same run over an empty text file (process and
# worker start-up); mutool and pdftocairo: task-clock of one process per file (as `xargs` runs
# them), 256 px, output discarded. Prints one line per file sorted by quire's CPU, then totals.
# Environment: QUIRE (default .build-static/release/quire), TIMEOUT (default 15).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
QUIRE=${QUIRE:-$here/../.build-static/release/quire}
TIMEOUT=${TIMEOUT:-15}
tree=${1:?usage: batch-per-file.sh TREE [OUT.tsv]}
table=${2:-/tmp/quire-batch-per-file.tsv}
command -v perf >/dev/null || { echo "needs perf (linux-perf)" >&2; exit 69; }
work=$(mktemp -d /tmp/quire-per-file.XXXXXX)
trap 'rm -rf "$work"' EXIT

cpu() { # command... → task-clock in ms (children included)
  perf stat -x, -e task-clock -o "$work/stat" -- "$@" >/dev/null 2>&1 || true
  awk -F, '/task-clock/ { printf "%.1f", $1 }' "$work/stat"; }

quire_cpu() { # file → ms
  rm -rf "$work/one" "$work/cache"; mkdir -p "$work/one" "$work/cache"
  ln "$1" "$work/one/" 2>/dev/null || cp "$1" "$work/one/"
  XDG_CACHE_HOME=$work/cache cpu "$QUIRE" thumbnail --batch --jobs 1 --no-sandbox --timeout "$TIMEOUT" "$work/one"; }

mkdir -p "$work/base"; echo text > "$work/base/a.txt"
base=$(for _ in 1 2 3; do rm -rf "$work/cache"; XDG_CACHE_HOME=$work/cache cpu "$QUIRE" thumbnail --batch --jobs 1 --no-sandbox "$work/base"; echo; done | sort -n | head -n1)
echo "quire start-up + one text file (subtracted): $base ms; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

: > "$table"
while IFS= read -r -d '' f; do
  q=$(quire_cpu "$f"); m=$(cpu timeout "$TIMEOUT" mutool draw -q -F png -o /dev/null -w 256 -h 256 "$f" 1)
  p=$(cpu timeout "$TIMEOUT" pdftocairo -png -singlefile -scale-to 256 "$f" -)
  printf '%s\t%s\t%s\t%s\n' "${f##*/}" "$(awk -v q="$q" -v b="$base" 'BEGIN { v = q - b; printf "%.1f", v < 0 ? 0 : v }')" "$m" "$p" >> "$table"
done < <(find "$tree" -type f -print0)

printf '%-28s %10s %10s %10s\n' file "quire ms" "mutool ms" "pdftocairo"
sort -t$'\t' -k2,2nr "$table" | awk -F'\t' '{ printf "%-28s %10s %10s %10s\n", $1, $2, $3, $4 }'
awk -F'\t' '{ q += $2; m += $3; p += $4 } END { printf "total CPU: quire %.0f ms (+ %s ms start-up once), mutool %.0f ms, pdftocairo %.0f ms\n", q, "'"$base"'", m, p }' "$table"
