#!/bin/bash
# Forms (issue 36): `quire form FILE --set …×20 -o OUT` on a form of 20 text fields
# (Samples/forms.py's forms/form-20.pdf) against `pdftk FILE fill_form values.xfdf output OUT`
# (pdftk-java) over the same file and values; RUNS alternating runs each, wall time median
# (min–max) and the ratio quire ÷ pdftk (issue 36's bound: at most 0.25). Both outputs are read
# back with pdftk dump_data_fields, so a fill that did nothing is not timed as a fast one.
#
#   bench/form-bench.sh QUIRE [RUNS]
#
# A benchmark, not a test: it prints figures and never fails on a number.
set -uo pipefail
QUIRE=${1:?usage: $0 QUIRE [RUNS]}
RUNS=${2:-10}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FILE=$ROOT/Samples/generated/forms/form-20.pdf
[ -f "$FILE" ] || /usr/bin/python3 -I "$ROOT/Samples/forms.py" "$ROOT/Samples/generated" || exit 70
command -v pdftk >/dev/null || { echo "form-bench: pdftk (pdftk-java) is not installed" >&2; exit 69; }
WORK=$(mktemp -d /tmp/quire-form-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

args=()
{
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo '<xfdf xmlns="http://ns.adobe.com/xfdf/"><fields>'
    for i in $(seq 1 20); do
        args+=(--set "field$i=Value number $i")
        echo "<field name=\"field$i\"><value>Value number $i</value></field>"
    done
    echo '</fields></xfdf>'
} > "$WORK/values.xfdf"

now() { date +%s%N; }
quire_times=() pdftk_times=()
for run in $(seq 1 "$RUNS"); do
    rm -f "$WORK/q.pdf" "$WORK/p.pdf"
    start=$(now); "$QUIRE" form "$FILE" "${args[@]}" -o "$WORK/q.pdf" || exit 70; end=$(now)
    quire_times+=($(( (end - start) / 1000 )))
    start=$(now); pdftk "$FILE" fill_form "$WORK/values.xfdf" output "$WORK/p.pdf" 2>/dev/null || exit 70; end=$(now)
    pdftk_times+=($(( (end - start) / 1000 )))
done
for out in q p; do
    filled=$(pdftk "$WORK/$out.pdf" dump_data_fields 2>/dev/null | grep -c '^FieldValue: Value number')
    [ "$filled" = 20 ] || { echo "form-bench: $out.pdf has $filled of 20 values" >&2; exit 70; }
done
stats() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f ms (%.1f–%.1f)", v[int((NR + 1) / 2)] / 1000, v[1] / 1000, v[NR] / 1000 }'; }
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "form-20.pdf, 20 text fields, $RUNS runs each (wall time, median (min–max)):"
echo "  quire form --set ×20 -o   $(stats "${quire_times[@]}")   size $(stat -c %s "$WORK/q.pdf") B (original $(stat -c %s "$FILE") B)"
echo "  pdftk fill_form           $(stats "${pdftk_times[@]}")   size $(stat -c %s "$WORK/p.pdf") B"
awk -v q="$(median "${quire_times[@]}")" -v p="$(median "${pdftk_times[@]}")" \
    'BEGIN { printf "  ratio quire / pdftk: %.3f (bound: at most 0.25)\n", q / p }'
