#!/usr/bin/env bash
# Benchmark (not a test): `quire thumbnail` against `pdftocairo -png -singlefile -scale-to 256`
# on the same PDF files, one process per file for both (the freedesktop thumbnailer contract),
# plus peak memory (max RSS) for the thumbnail of a 1000-page PDF.
#
# Usage: bench/thumbnail-bench.sh [QUIRE_BINARY] [RUNS]
#   QUIRE_BINARY defaults to .build/release/quire (build it with: swift build -c release).
#                For shipping numbers use the shipped build (`make release`, the Makefile's
#                RELEASE_FLAGS): .build-static/release/quire, as `make bench` does
#   RUNS         repetitions per file (default 20)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
quire="${1:-$root/.build/release/quire}"
runs="${2:-20}"
samples="$root/Samples/generated"
[[ -x "$quire" ]] || { echo "bench: $quire not built (swift build -c release)" >&2; exit 69; }
command -v pdftocairo >/dev/null || { echo "bench: pdftocairo missing (apt-get install poppler-utils)" >&2; exit 69; }
[[ -f "$samples/thousand-pages.pdf" ]] || "$root/Samples/generate.sh" >/dev/null
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Microseconds from bash's clock (no process started to read it).
now() { local t=${EPOCHREALTIME/./}; echo "$t"; }

# Children's user+system CPU time so far, in microseconds, into $cpu (bash's `times` builtin
# redirected to a file: no subshell, which would report its own children instead).
cpu_now() {
    times > "$tmp/times"
    local line
    { read -r _; read -r line; } < "$tmp/times"   # second line: "0m0.123s 0m0.045s" for children
    cpu=$(( $(to_us "${line%% *}") + $(to_us "${line##* }") ))
}
to_us() {   # 1m2.345s -> microseconds
    local v=${1%s} m=${1%%m*}
    local sec=${v#*m}
    local whole=${sec%.*} frac=${sec#*.}
    frac=$(printf '%-6s' "$frac"); frac=${frac// /0}
    echo $(( (10#$m * 60 + 10#$whole) * 1000000 + 10#$frac ))
}

# Runs two commands alternately RUNS times (after one warm-up each), so that load from other
# processes on the machine hits both alike. Prints four lines: A wall ms, B wall ms, A CPU ms,
# B CPU ms (per run). CPU time (user + system) is the steadier number on a shared machine.
pair() {
    local -n first=$1 second=$2
    "${first[@]}" >/dev/null 2>&1; "${second[@]}" >/dev/null 2>&1
    local a=0 b=0 ca=0 cb=0 t0 t1 t2 c0 c1 c2
    for ((i = 0; i < runs; i++)); do
        cpu_now; c0=$cpu; t0=${EPOCHREALTIME/./}; "${first[@]}" >/dev/null 2>&1; t1=${EPOCHREALTIME/./}; cpu_now; c1=$cpu
        "${second[@]}" >/dev/null 2>&1; t2=${EPOCHREALTIME/./}; cpu_now; c2=$cpu
        a=$((a + t1 - t0)); b=$((b + t2 - t1)); ca=$((ca + c1 - c0)); cb=$((cb + c2 - c1))
    done
    for v in $a $b $ca $cb; do echo "scale=2; $v / 1000 / $runs" | bc; done
}

printf '%-20s %10s %10s %7s   %10s %10s %7s\n' "file" "quire" "pdftocairo" "ratio" "quire CPU" "ptc CPU" "ratio"
for name in document.pdf encrypted.pdf:secret thousand-pages.pdf; do
    file="${name%%:*}"; password=""
    [[ "$name" == *:* ]] && password="${name#*:}"
    input="$samples/$file"
    if [[ -n "$password" ]]; then
        q_cmd=("$quire" thumbnail -s 256 --password "$password" "$input" "$tmp/q.png")
        p_cmd=(pdftocairo -png -singlefile -scale-to 256 -upw "$password" "$input" "$tmp/p")
    else
        q_cmd=("$quire" thumbnail -s 256 "$input" "$tmp/q.png")
        p_cmd=(pdftocairo -png -singlefile -scale-to 256 "$input" "$tmp/p")
    fi
    { read -r q; read -r p; read -r qc; read -r pc; } < <(pair q_cmd p_cmd)
    printf '%-20s %8sms %8sms %6sx   %8sms %8sms %6sx\n' "$file" "$q" "$p" "$(echo "scale=2; $p / $q" | bc)" \
        "$qc" "$pc" "$(echo "scale=2; $pc / $qc" | bc)"
done
echo "(per file, one process each; ratio = pdftocairo / quire: above 1 means quire is faster)"

# The poppler-glib floor: bench/poppler-glib-floor.c does only what a thumbnail needs with the
# same libraries Quire uses (poppler-glib + cairo), so the cost of the library stack itself can
# be told apart from Quire's own.
floor="$tmp/poppler-glib-floor"
if command -v cc >/dev/null && pkg-config --exists poppler-glib cairo gobject-2.0; then
    # shellcheck disable=SC2046  # pkg-config's flags are words
    cc -O2 -o "$floor" "$root/bench/poppler-glib-floor.c" $(pkg-config --cflags --libs poppler-glib cairo gobject-2.0) || floor=""
else
    floor=""
fi
if [[ -n "$floor" ]]; then
    f_cmd=("$floor" 256 "$samples/document.pdf" "$tmp/f.png")
    p_cmd=(pdftocairo -png -singlefile -scale-to 256 "$samples/document.pdf" "$tmp/p")
    { read -r f; read -r p; read -r fc; read -r pc; } < <(pair f_cmd p_cmd)
    printf '%-20s %8sms %8sms %6sx   %8sms %8sms %6sx\n' "(poppler-glib floor)" "$f" "$p" "$(echo "scale=2; $p / $f" | bc)" \
        "$fc" "$pc" "$(echo "scale=2; $pc / $fc" | bc)"
    echo "(the floor: a C program doing only poppler-glib open, render, cairo PNG on document.pdf)"
fi

# Peak memory: the median of 9 runs' max RSS (GNU time), in KiB.
peak() {
    local values=() i
    for ((i = 0; i < 9; i++)); do
        values+=("$(/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1)")
    done
    printf '%s\n' "${values[@]}" | sort -n | sed -n 5p
}
echo
echo "Peak memory (max RSS, median of 9) for the first-page thumbnail of thousand-pages.pdf:"
qm=$(peak "$quire" thumbnail -s 256 "$samples/thousand-pages.pdf" "$tmp/q.png")
pm=$(peak pdftocairo -png -singlefile -scale-to 256 "$samples/thousand-pages.pdf" "$tmp/p")
printf '  quire                %6s KiB\n  pdftocairo           %6s KiB\n' "$qm" "$pm"
if [[ -n "$floor" ]]; then
    fm=$(peak "$floor" 256 "$samples/thousand-pages.pdf" "$tmp/f.png")
    printf '  poppler-glib floor   %6s KiB\n' "$fm"
fi
qm1=$(peak "$quire" thumbnail -s 256 "$samples/document.pdf" "$tmp/q.png")
printf '  quire, 3-page PDF    %6s KiB (growth from 3 to 1000 pages: %s KiB)\n' "$qm1" "$((qm - qm1))"
echo
echo "Other families (quire only, ms per file):"
for file in format.jpg format.png drawing.svg notes.txt document.odt book.epub document.ps; do
    q_cmd=("$quire" thumbnail -s 256 "$samples/$file" "$tmp/q.png")
    true_cmd=(true)
    { read -r q; read -r _; read -r _; read -r _; } < <(pair q_cmd true_cmd)
    printf '  %-20s %8s\n' "$file" "$q"
done
