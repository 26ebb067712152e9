#!/bin/bash
# The libraries' floor under the markup save bar (bench/markup-floor.c): libqpdf and
# poppler-glib opening thousand-pages.pdf, each run; compare with markup-bench.py's copy time.
#   bench/markup-floor.sh [RUNS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$root/.build/bench"
binary="$root/.build/bench/markup-floor"
# shellcheck disable=SC2046
cc -O2 -o "$binary" "$root/bench/markup-floor.c" $(pkg-config --cflags --libs poppler-glib) -lqpdf
echo "thousand-pages.pdf: what the libraries take only to open it (the save bar is 1.5x a copy):"
"$binary" "$root/Samples/generated/thousand-pages.pdf" "${1:-7}"
