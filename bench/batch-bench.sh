#!/usr/bin/env bash
# Batch thumbnail benchmark: quire thumbnail --batch against per-file loops, side by side, on
# trees generated here (256 px, cold cache, 2 parallel jobs everywhere).
#
#   bench/batch-bench.sh [WORKDIR]        (default WORKDIR: /tmp/quire-batch-bench)
#
# Environment: QUIRE (default .build/release/quire), JOBS (default 2), TEXT_DOCS (default 200),
# MANY_FILES (default 10000, for the up-to-date rerun rate), REPEAT (default 2: tools alternate
# and each keeps its best time), TREES (default "text mixed images many": which trees to run).
# Needs: poppler-utils (pdftocairo), mupdf-tools (mutool), libgdk-pixbuf2.0-bin
# (gdk-pixbuf-thumbnailer), groff (gropdf), ghostscript, coreutils, findutils, time.
# Baselines run straight from xargs (no shell), writing their PNG to /dev/null (which only
# helps them), each file under the same 15 s limit quire gets (TIMEOUT):
#   find T -type f -print0 | xargs -0 -P2 -I{} timeout 15 pdftocairo -png -singlefile -scale-to 256 {} -
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
QUIRE=${QUIRE:-$root/.build/release/quire}
JOBS=${JOBS:-2}
TEXT_DOCS=${TEXT_DOCS:-200}
MANY_FILES=${MANY_FILES:-10000}
REPEAT=${REPEAT:-2}
TIMEOUT=${TIMEOUT:-15}
TREES=${TREES:-text mixed images many}
wanted() { case " $TREES " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
work=${1:-/tmp/quire-batch-bench}
[ -x "$QUIRE" ] || { echo "build first: swift build -c release (or set QUIRE=)" >&2; exit 69; }
for tool in pdftocairo mutool gdk-pixbuf-thumbnailer groff gs /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install poppler-utils mupdf-tools libgdk-pixbuf2.0-bin groff ghostscript time)" >&2; exit 69; }
done
mkdir -p "$work"
trees=$work/trees
out=$work/out

now() { date +%s.%N; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
count() { find "$1" -type f | wc -l; }

# ---------------------------------------------------------------- trees (made once, reused)
make_trees() {
  [ -f "$trees/.complete" ] && return
  rm -rf "$trees"; mkdir -p "$trees/text" "$trees/mixed" "$trees/images" "$trees/many" "$work/src"
  echo "generating trees in $trees …" >&2
  # Text/vector PDFs: groff-made manuals (first N man pages, by name) and long generated text.
  local manuals=$(( TEXT_DOCS * 3 / 4 )) i=0
  for page in $(find /usr/share/man/man1 -name '*.1.gz' | LC_ALL=C sort | awk -v n="$manuals" 'NR <= n'); do
    i=$((i + 1))
    zcat "$page" | groff -man -Tpdf 2>/dev/null > "$trees/text/manual-$i.pdf" || rm -f "$trees/text/manual-$i.pdf"
  done
  for i in $(seq 1 $(( TEXT_DOCS - manuals ))); do
    awk -v n="$i" 'BEGIN { for (p = 0; p < 40 + n % 60; p++) { print ".SH \"Section " p "\""; for (l = 0; l < 12; l++) print "Generated text line " l " of section " p " in document " n ", long enough to fill a justified paragraph with words."; } }' \
      | groff -ms -Tpdf 2>/dev/null > "$trees/text/generated-$i.pdf"
  done
  # Photos (ghostscript-drawn, JPEG) and scans: PDF pages that are one large JPEG.
  for i in 1 2 3 4 5 6; do
    local w=4000 h=3000; [ "$i" -gt 4 ] && { w=6000; h=4000; }
    gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=jpeg -dJPEGQ=85 -g${w}x${h} -r72 -dFIXEDMEDIA \
       -dDEVICEWIDTHPOINTS=$w -dDEVICEHEIGHTPOINTS=$h -sOutputFile="$work/src/photo-$i.jpg" \
       -c "/seed $i def" -f "$here/lib/photo.ps"
    gs -q -dNOPAUSE -dBATCH -sDEVICE=pdfwrite -o "$work/src/scan-$i.pdf" --permit-file-read="$work/src/" \
       "$(ls /usr/share/ghostscript/*/lib/viewjpeg.ps | awk -v n=1 'NR <= n')" \
       -c "($work/src/photo-$i.jpg) << /PageSize 2 index viewJPEGgetsize 2 array astore >> setpagedevice viewJPEG"
  done
  # Mixed: 60 text PDFs, 24 image-heavy PDFs, 8 broken files.
  ls "$trees/text" | LC_ALL=C sort | awk -v n=60 'NR <= n' | while read -r name; do cp "$trees/text/$name" "$trees/mixed/$name"; done
  for i in $(seq 1 24); do cp "$work/src/scan-$(( (i - 1) % 6 + 1 )).pdf" "$trees/mixed/scan-$i.pdf"; done
  local first; first=$(ls "$trees/text"/*.pdf | awk -v n=1 'NR <= n')
  for i in 1 2 3 4; do head -c $(( i * 2000 )) "$first" > "$trees/mixed/truncated-$i.pdf"; done
  for i in 1 2 3 4; do head -c 50000 /dev/urandom > "$trees/mixed/garbage-$i.pdf"; done
  # Images: 6 photos × 20 copies (12 and 24 MP JPEG) and 80 PNGs rendered from manuals.
  for i in $(seq 1 120); do cp "$work/src/photo-$(( (i - 1) % 6 + 1 )).jpg" "$trees/images/photo-$i.jpg"; done
  ls "$trees/text"/*.pdf | awk -v n=80 'NR <= n' | { j=0; while read -r pdf; do j=$((j + 1)); pdftocairo -png -singlefile -r 100 "$pdf" "$trees/images/page-$j"; done; }
  # Many small files, for the up-to-date rerun rate.
  pdftocairo -png -singlefile -scale-to 64 "$first" "$work/src/small"
  mkdir -p "$trees/many"
  for d in $(seq 1 $(( MANY_FILES / 500 ))); do
    mkdir -p "$trees/many/d$d"
    for f in $(seq 1 500); do ln "$work/src/small.png" "$trees/many/d$d/f$f.png" 2>/dev/null || cp "$work/src/small.png" "$trees/many/d$d/f$f.png"; done
  done
  touch "$trees/.complete"
}

# Pages that stress one of poppler's backends (Samples/shadings.py): a function-based shading
# that poppler's cairo backend needs minutes for, axial/radial/mesh shadings, a 5000x5000 image,
# 30,000 tiny glyphs — two copies each, added to the mixed tree (once).
add_stress_pages() {
  [ -f "$trees/.stress" ] && return
  python3 "$root/Samples/shadings.py" "$work/src/stress" >/dev/null
  for name in shading-function shading-axial shading-radial shading-mesh huge-image many-glyphs; do
    for copy in 1 2; do cp "$work/src/stress/$name.pdf" "$trees/mixed/$name-$copy.pdf"; done
  done
  touch "$trees/.stress"
}

# ---------------------------------------------------------------- runners (print seconds)
run_pdftocairo() { local t0; t0=$(now)
  find "$1" -type f -print0 | xargs -0 -P"$JOBS" -I{} timeout "$TIMEOUT" pdftocairo -png -singlefile -scale-to 256 {} - >/dev/null 2>&1 || true
  awk -v a="$(now)" -v b="$t0" 'BEGIN { printf "%.3f", a - b }'; }
run_mutool() { local t0; t0=$(now)
  find "$1" -type f -print0 | xargs -0 -P"$JOBS" -I{} timeout "$TIMEOUT" mutool draw -q -F png -o /dev/null -w 256 -h 256 {} 1 >/dev/null 2>&1 || true
  awk -v a="$(now)" -v b="$t0" 'BEGIN { printf "%.3f", a - b }'; }
run_pixbuf() { rm -rf "$out/pixbuf"; mkdir -p "$out/pixbuf"; local t0; t0=$(now)
  find "$1" -type f -print0 | xargs -0 -P"$JOBS" -I{} timeout "$TIMEOUT" gdk-pixbuf-thumbnailer -s 256 {} "$out/pixbuf/last.png" >/dev/null 2>&1 || true
  awk -v a="$(now)" -v b="$t0" 'BEGIN { printf "%.3f", a - b }'; }
# quire: cold cache; prints "seconds peak-RSS-KiB"
run_quire() { local cache="$out/cache-$2"; rm -rf "$cache"; mkdir -p "$cache"; local t0 rss; t0=$(now)
  XDG_CACHE_HOME=$cache /usr/bin/time -f %M -o "$out/rss-$2" "$QUIRE" thumbnail --batch -r --size large --jobs "$JOBS" --timeout "$TIMEOUT" "$1" > "$out/quire-$2.log" 2>&1 || true
  rss=$(tail -n1 "$out/rss-$2")
  awk -v a="$(now)" -v b="$t0" -v r="$rss" 'BEGIN { printf "%.3f %s\n", a - b, r }'; }
rerun_quire() { local cache="$out/cache-$2"; local t0; t0=$(now)
  XDG_CACHE_HOME=$cache "$QUIRE" thumbnail --batch -r --size large --jobs "$JOBS" "$1" > "$out/quire-$2-rerun.log" 2>&1 || true
  awk -v a="$(now)" -v b="$t0" 'BEGIN { printf "%.3f", a - b }'; }

make_trees
add_stress_pages
mkdir -p "$out"
echo "quire: $QUIRE ($("$QUIRE" --version)); jobs $JOBS; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); best of $REPEAT alternating runs"
echo "sandbox: $(command -v bwrap >/dev/null && echo bubblewrap || echo none)"
echo

report() { # tree label baseline-name baseline-seconds quire-seconds files
  printf "  %-28s %8.3f s  %7.1f files/s\n" "$3" "$4" "$(awk -v n="$6" -v t="$4" 'BEGIN { print n / t }')"
}

min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a + 0 < b + 0) ? a : b }'; }

# Every file poppler's Splash (pdftoppm) or MuPDF (mutool draw) can draw must have got a
# thumbnail from the cold run whose cache is $2 (names in the trees are plain ASCII, so the
# thumbnail's name is the MD5 of "file://" + the path).
coverage() { local tree=$1 cache=$2 drawable=0 covered=0 missing="" f md5
  while IFS= read -r -d '' f; do
    if timeout "$TIMEOUT" mutool draw -q -F png -o /dev/null -w 64 -h 64 "$f" 1 >/dev/null 2>&1 \
       || timeout "$TIMEOUT" pdftoppm -q -singlefile -scale-to 64 "$f" >/dev/null 2>&1; then
      drawable=$((drawable + 1))
      md5=$(printf 'file://%s' "$f" | md5sum | cut -d' ' -f1)
      if [ -s "$cache/thumbnails/large/$md5.png" ]; then covered=$((covered + 1)); else missing="$missing ${f##*/}"; fi
    fi
  done < <(find "$tree" -type f -print0)
  echo "  drawable by Splash or MuPDF: $drawable; with a quire thumbnail: $covered${missing:+; MISSING:$missing}"
}

for tree in text mixed; do
  wanted "$tree" || continue
  n=$(count "$trees/$tree")
  # Alternate the tools and keep each one's best of $REPEAT runs: other load on the machine then
  # hits all of them alike.
  p=""; m=""; q=""
  for _ in $(seq 1 "$REPEAT"); do
    p=$(min "$(run_pdftocairo "$trees/$tree")" "$p")
    read -r qt rss < <(run_quire "$trees/$tree" "$tree"); q=$(min "$qt" "$q")
    m=$(min "$(run_mutool "$trees/$tree")" "$m")
  done
  r=$(rerun_quire "$trees/$tree" "$tree")
  echo "== $tree: $n files =="
  report "$tree" "" "xargs -P$JOBS pdftocairo" "$p" "" "$n"
  report "$tree" "" "xargs -P$JOBS mutool draw" "$m" "" "$n"
  report "$tree" "" "quire thumbnail --batch" "$q" "" "$n"
  echo "  quire vs pdftocairo: $(ratio "$p" "$q")x   quire vs mutool: $(ratio "$m" "$q")x   peak RSS $((rss / 1024)) MiB"
  echo "  summary: $(grep -m1 ' generated, ' "$out/quire-$tree.log")"
  echo "  timed out: $(grep -c 'gave up after\|timeout' "$out/quire-$tree.log" || true) file(s); failed: $(grep '^  /' "$out/quire-$tree.log" | sed 's|.*/||' | tr '\n' ' ')"
  echo "  rerun (all up to date): $r s"
  [ "$tree" = mixed ] && coverage "$trees/$tree" "$out/cache-$tree"
  echo "  load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
done

if wanted images; then
n=$(count "$trees/images")
g=""; q=""
for _ in $(seq 1 "$REPEAT"); do
  g=$(min "$(run_pixbuf "$trees/images")" "$g")
  read -r qt rss < <(run_quire "$trees/images" images); q=$(min "$qt" "$q")
done
echo "== images: $n files =="
report images "" "xargs -P$JOBS gdk-pixbuf-thumbnailer" "$g" "" "$n"
report images "" "quire thumbnail --batch" "$q" "" "$n"
echo "  quire vs gdk-pixbuf-thumbnailer: $(ratio "$g" "$q")x   peak RSS $((rss / 1024)) MiB"
echo
fi

wanted many || exit 0

n=$(count "$trees/many")
read -r q rss < <(run_quire "$trees/many" many)
r=$(rerun_quire "$trees/many" many)
r2=$(rerun_quire "$trees/many" many)
echo "== many: $n small files =="
echo "  cold: $q s, peak RSS $((rss / 1024)) MiB; $(grep -m1 generated "$out/quire-many.log")"
echo "  up-to-date rerun: $r s and $r2 s wall ($(awk -v n="$n" -v t="$r2" 'BEGIN { printf "%.0f", n / t }') files/s incl. process start)"
echo "  quire's own figure: $(grep -m1 "up to date" "$out/quire-many-rerun.log")"
