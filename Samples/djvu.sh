#!/usr/bin/env bash
# DjVu samples, made with DjVuLibre's own tools (djvulibre-bin: c44, cjb2, djvused, djvm,
# djvmcvt) into OUT/djvu/:
#   book.djvu          a bundled 3-page document at 100 dpi: page 1 colour (IW44, 400×300 px, left
#                      red, right blue), page 2 bilevel (JB2, 850×1100 px: Letter) with a black bar
#                      and a hidden text layer ("Quire finds" / "Café déjà vu"), page 3 wide green
#                      (600×200 px)
#   indirect/index.djvu  the same book as an indirect document: the index and a file per page
#                      beside it
#   missing/index.djvu   the indirect book with its second page file removed
#   truncated.djvu     the first 300 bytes of book.djvu
set -euo pipefail
out="$1/djvu"
work="$out/.work"
rm -rf "$out"
mkdir -p "$work"
python3 - "$work" <<'PY'
import sys, os
w = sys.argv[1]
def ppm(name, width, height, color):
    with open(os.path.join(w, name), "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (width, height))
        f.write(b"".join(bytes(color(x, y)) for y in range(height) for x in range(width)))
ppm("page1.ppm", 400, 300, lambda x, y: (255, 0, 0) if x < 200 else (0, 0, 255))
ppm("page3.ppm", 600, 200, lambda x, y: (0, 200, 0))
# P4: a bar 100..700 × 100..200 (from the top) black on white, rows padded to bytes.
width, height = 850, 1100
row_bytes = (width + 7) // 8
rows = []
for y in range(height):
    bits = bytearray(row_bytes)
    if 100 <= y < 200:
        for x in range(100, 700):
            bits[x // 8] |= 0x80 >> (x % 8)
    rows.append(bytes(bits))
with open(os.path.join(w, "page2.pbm"), "wb") as f:
    f.write(b"P4\n%d %d\n" % (width, height) + b"".join(rows))
# The hidden text: page pixels from the bottom-left corner; the bar's top line "Quire finds".
with open(os.path.join(w, "page2.txt"), "w", encoding="utf-8") as f:
    f.write('(page 0 0 850 1100 (line 100 900 700 1000 (word 100 900 380 1000 "Quire") (word 420 900 700 1000 "finds"))'
            ' (line 100 700 600 800 (word 100 700 300 800 "Café") (word 330 700 450 800 "déjà") (word 480 700 600 800 "vu")))\n')
PY
c44 -dpi 100 "$work/page1.ppm" "$work/page1.djvu"
cjb2 -dpi 100 "$work/page2.pbm" "$work/page2.djvu"
djvused "$work/page2.djvu" -e "select 1; set-txt $work/page2.txt" -s
c44 -dpi 100 "$work/page3.ppm" "$work/page3.djvu"
djvm -c "$out/book.djvu" "$work/page1.djvu" "$work/page2.djvu" "$work/page3.djvu"
mkdir -p "$out/indirect" "$out/missing"
djvmcvt -i "$out/book.djvu" "$out/indirect" index.djvu
djvmcvt -i "$out/book.djvu" "$out/missing" index.djvu
rm "$out/missing/page2.djvu"
head -c 300 "$out/book.djvu" > "$out/truncated.djvu"
rm -rf "$work"
