#!/bin/bash
# Photos and books (issue 39), each beside the tool a desktop would otherwise run, same run:
#  - HEIC: a tree of 12-megapixel iPhone-sized HEIC photos, `quire thumbnail --batch --jobs 2`
#    into a throw-away cache against GNOME's heif-thumbnailer (Debian's heif-thumbnailer) started once per
#    file, two at a time, as a file manager runs thumbnailers; and one file each way.
#  - Camera RAW: one-file `quire thumbnail -s 256` of the real DNG and RW2 samples (their
#    embedded previews are tiny: 26 bytes and 8×8; the DNG's cannot be read, so its sensor data
#    is developed) against `dcraw -e` (extracts the embedded preview, no scaling, no PNG). Then
#    the RW2 with a camera-sized 1620×1080 preview put in by exiftool (JpgFromRaw): one file, a
#    tree of PHOTOS copies (`--batch --jobs 2`, per file) against `dcraw -e` per file (one at a
#    time and two at a time), and the floor: gdk-pixbuf decoding that preview to 256 px alone
#    (bench/floors/scaled-jpeg-decode.c), which `dcraw -e` never does.
#  - DjVu: page 1 at 256 px, `quire thumbnail -s 256` against `ddjvu -page=1 -size=256x256`,
#    and the floor: GIO's sniff, ddjvuapi and libpng doing only that (bench/floors/djvu-thumbnail.c),
#    in C and called from a static Swift main.
# Wall times, median (min–max) of RUNS alternating runs; ratios quire ÷ baseline (issue 39: HEIC
# and RAW faster than the baseline, DjVu no slower). Every output is checked to exist and be
# non-empty, so a failure is not timed as a fast run.
#
#   bench/photo-bench.sh QUIRE [RUNS] [PHOTOS]
#
# A benchmark, not a test: it prints figures and never fails on a number.
set -uo pipefail
QUIRE=${1:?usage: $0 QUIRE [RUNS] [PHOTOS]}
RUNS=${2:-5}
PHOTOS=${3:-24}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SAMPLES=$ROOT/Samples/generated
for tool in heif-enc heif-thumbnailer dcraw ddjvu convert exiftool cc swiftc pkg-config; do
    command -v "$tool" >/dev/null || { echo "photo-bench: $tool is not installed (make bench installs it)" >&2; exit 69; }
done
[ -f "$SAMPLES/djvu/book.djvu" ] && [ -f "$SAMPLES/camera.dng" ] || { echo "photo-bench: run make samples first" >&2; exit 69; }
WORK=$(mktemp -d /tmp/quire-photo-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

now() { date +%s%N; }
stats() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f ms (%.1f–%.1f)", v[int((NR + 1) / 2)] / 1000, v[1] / 1000, v[NR] / 1000 }'; }
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v q="$(median $1)" -v b="$(median $2)" -v bound="$3" -v what="${4:-quire / baseline}" 'BEGIN { printf "  ratio %s: %.2f (%s)\n", what, q / b, bound }'; }
nonempty() { [ -s "$1" ] || { echo "photo-bench: $2 wrote no output ($1)" >&2; exit 70; }; }

# A 4032×3024 photo-like picture (a swirled gradient with noise, so the encoder has real work),
# as a phone's HEIC at quality 60 with the 320-pixel thumbnail item phones write (iPhones:
# 320×240); the tree holds PHOTOS copies under distinct names.
convert -size 4032x3024 gradient:'#203050'-'#e0c090' -swirl 120 -attenuate 0.4 +noise Gaussian "$WORK/source.png" 2>/dev/null || { echo "photo-bench: ImageMagick's convert is needed" >&2; exit 69; }
heif-enc -q 60 -t 320 -o "$WORK/photo.heic" "$WORK/source.png" >/dev/null || exit 70
mkdir -p "$WORK/photos"
for i in $(seq 1 "$PHOTOS"); do cp "$WORK/photo.heic" "$WORK/photos/IMG_$(printf %04d "$i").heic"; done
echo "HEIC: $PHOTOS photos of 4032×3024, $(( $(stat -c %s "$WORK/photo.heic") / 1024 )) KiB each; $RUNS runs"

quire_times=() base_times=()
for run in $(seq 1 "$RUNS"); do
    rm -rf "$WORK/cache" "$WORK/heif-out"; mkdir -p "$WORK/heif-out"
    start=$(now)
    XDG_CACHE_HOME=$WORK/cache "$QUIRE" thumbnail --batch --jobs 2 "$WORK/photos" >/dev/null 2>&1 || { echo "photo-bench: quire's batch failed" >&2; exit 70; }
    end=$(now); quire_times+=($(( (end - start) / 1000 )))
    written=$(find "$WORK/cache/thumbnails/large" -name '*.png' | wc -l)
    [ "$written" = "$PHOTOS" ] || { echo "photo-bench: quire wrote $written of $PHOTOS thumbnails" >&2; exit 70; }
    start=$(now)
    find "$WORK/photos" -name '*.heic' -print0 | xargs -0 -P 2 -I{} sh -c 'heif-thumbnailer -s 256 "$1" "$2/$(basename "$1").png"' _ {} "$WORK/heif-out"
    end=$(now); base_times+=($(( (end - start) / 1000 )))
    written=$(find "$WORK/heif-out" -name '*.png' -size +0 | wc -l)
    [ "$written" = "$PHOTOS" ] || { echo "photo-bench: heif-thumbnailer wrote $written of $PHOTOS" >&2; exit 70; }
done
echo "  quire thumbnail --batch --jobs 2      $(stats "${quire_times[@]}")"
echo "  heif-thumbnailer -s 256, 2 at a time  $(stats "${base_times[@]}")"
ratio "${quire_times[*]}" "${base_times[*]}" "issue 39: below 1"

quire_times=() base_times=()
for run in $(seq 1 "$RUNS"); do
    rm -f "$WORK/q.png" "$WORK/h.png"
    start=$(now); "$QUIRE" thumbnail -s 256 "$WORK/photo.heic" "$WORK/q.png" || exit 70; end=$(now)
    quire_times+=($(( (end - start) / 1000 ))); nonempty "$WORK/q.png" quire
    start=$(now); heif-thumbnailer -s 256 "$WORK/photo.heic" "$WORK/h.png" || exit 70; end=$(now)
    base_times+=($(( (end - start) / 1000 ))); nonempty "$WORK/h.png" heif-thumbnailer
done
echo "HEIC, one file:"
echo "  quire thumbnail -s 256     $(stats "${quire_times[@]}")"
echo "  heif-thumbnailer -s 256    $(stats "${base_times[@]}")"
ratio "${quire_times[*]}" "${base_times[*]}" "issue 39: below 1"

for raw in "$SAMPLES/camera.dng" "$SAMPLES/camera.rw2"; do
    quire_times=() base_times=()
    for run in $(seq 1 "$RUNS"); do
        rm -f "$WORK/q.png" "$WORK/d.jpg"
        start=$(now); "$QUIRE" thumbnail -s 256 "$raw" "$WORK/q.png" || exit 70; end=$(now)
        quire_times+=($(( (end - start) / 1000 ))); nonempty "$WORK/q.png" quire
        start=$(now); dcraw -e -c "$raw" > "$WORK/d.jpg" || exit 70; end=$(now)
        base_times+=($(( (end - start) / 1000 ))); nonempty "$WORK/d.jpg" "dcraw -e"
    done
    echo "Camera RAW $(basename "$raw") ($(stat -c %s "$raw") B), one file:"
    echo "  quire thumbnail -s 256     $(stats "${quire_times[@]}")"
    echo "  dcraw -e                   $(stats "${base_times[@]}")"
    ratio "${quire_times[*]}" "${base_times[*]}" "issue 39: below 1"
done

# A camera-sized preview in a real RW2 (a copy: exiftool writes in place), and a tree of it.
convert -size 1620x1080 plasma:fractal -blur 0x1 -quality 92 "$WORK/preview.jpg" 2>/dev/null || exit 70
cp "$SAMPLES/camera.rw2" "$WORK/camera.rw2"
exiftool -q -overwrite_original '-JpgFromRaw<=preview.jpg' "$WORK/camera.rw2" >/dev/null 2>&1 || (cd "$WORK" && exiftool -q -overwrite_original '-JpgFromRaw<=preview.jpg' camera.rw2) || exit 70
cc -O2 "$ROOT/bench/floors/scaled-jpeg-decode.c" -o "$WORK/scaled-jpeg-decode" $(pkg-config --cflags --libs gdk-pixbuf-2.0) || exit 70
mkdir -p "$WORK/raws"
for i in $(seq 1 "$PHOTOS"); do cp "$WORK/camera.rw2" "$WORK/raws/P$(printf %07d "$i").RW2"; done
quire_times=() base_times=() batch_times=() serial_times=() pair_times=()
for run in $(seq 1 "$RUNS"); do
    rm -rf "$WORK/q.png" "$WORK/d.jpg" "$WORK/raw-cache"
    start=$(now); "$QUIRE" thumbnail -s 256 "$WORK/camera.rw2" "$WORK/q.png" || exit 70; end=$(now)
    quire_times+=($(( (end - start) / 1000 ))); nonempty "$WORK/q.png" quire
    start=$(now); dcraw -e -c "$WORK/camera.rw2" > "$WORK/d.jpg" || exit 70; end=$(now)
    base_times+=($(( (end - start) / 1000 ))); nonempty "$WORK/d.jpg" "dcraw -e"
    start=$(now); XDG_CACHE_HOME=$WORK/raw-cache "$QUIRE" thumbnail --batch --jobs 2 "$WORK/raws" >/dev/null 2>&1 || exit 70; end=$(now)
    batch_times+=($(( (end - start) / 1000 / PHOTOS )))
    [ "$(find "$WORK/raw-cache/thumbnails" -name '*.png' | wc -l)" -eq "$PHOTOS" ] || { echo "photo-bench: the RAW batch wrote too few thumbnails" >&2; exit 70; }
    start=$(now); for raw in "$WORK/raws"/*.RW2; do dcraw -e -c "$raw" > "$WORK/d.jpg" || exit 70; done; end=$(now)
    serial_times+=($(( (end - start) / 1000 / PHOTOS )))
    start=$(now); printf '%s\0' "$WORK/raws"/*.RW2 | xargs -0 -P 2 -n 1 dcraw -e || exit 70; end=$(now)
    pair_times+=($(( (end - start) / 1000 / PHOTOS )))
    rm -f "$WORK/raws"/*.thumb.jpg
done
dcraw -e -c "$WORK/camera.rw2" > "$WORK/d.jpg"
floor=$("$WORK/scaled-jpeg-decode" "$WORK/d.jpg" 256 171 30) || exit 70
echo "Camera RAW with a 1620×1080 preview ($(( $(stat -c %s "$WORK/camera.rw2") / 1024 )) KiB):"
echo "  one file:  quire thumbnail -s 256            $(stats "${quire_times[@]}")"
echo "             dcraw -e                          $(stats "${base_times[@]}")"
ratio "${quire_times[*]}" "${base_times[*]}" "issue 39: below 1"
echo "  per file in a tree of $PHOTOS:"
echo "             quire thumbnail --batch --jobs 2  $(stats "${batch_times[@]}")"
echo "             dcraw -e, one at a time           $(stats "${serial_times[@]}")"
echo "             dcraw -e, two at a time           $(stats "${pair_times[@]}")"
ratio "${batch_times[*]}" "${serial_times[*]}" "issue 39: below 1"
echo "  floor: the preview decoded to 256×171 by gdk-pixbuf alone, best of 30: $floor ms (dcraw -e does not decode)"

# The DjVu floor: GIO's sniff, ddjvuapi and libpng in C (bench/floors/djvu-thumbnail.c), and the
# same called from a static Swift main: what the libraries Quire must use cost before Quire.
cc -O2 -o "$WORK/djvu-floor" "$ROOT/bench/floors/djvu-thumbnail.c" $(pkg-config --cflags --libs gio-2.0 ddjvuapi libpng) || exit 70
cc -O2 -c -include "$ROOT/bench/floors/floor-main.h" -Dmain=floor_main -o "$WORK/djvu-floor.o" \
    "$ROOT/bench/floors/djvu-thumbnail.c" $(pkg-config --cflags gio-2.0 ddjvuapi libpng) || exit 70
swiftc -O -static-stdlib -parse-as-library -o "$WORK/djvu-swift-floor" "$ROOT/bench/floors/swift-main.swift" \
    "$WORK/djvu-floor.o" $(pkg-config --libs gio-2.0 ddjvuapi libpng) 2>/dev/null || exit 70
quire_times=() base_times=() floor_times=() swift_floor_times=()
for run in $(seq 1 "$RUNS"); do
    rm -f "$WORK/q.png" "$WORK/d.ppm" "$WORK/f.png" "$WORK/s.png"
    start=$(now); "$QUIRE" thumbnail -s 256 "$SAMPLES/djvu/book.djvu" "$WORK/q.png" || exit 70; end=$(now)
    quire_times+=($(( (end - start) / 1000 ))); nonempty "$WORK/q.png" quire
    start=$(now); ddjvu -page=1 -size=256x256 -format=ppm "$SAMPLES/djvu/book.djvu" "$WORK/d.ppm" || exit 70; end=$(now)
    base_times+=($(( (end - start) / 1000 ))); nonempty "$WORK/d.ppm" ddjvu
    start=$(now); "$WORK/djvu-floor" 256 "$SAMPLES/djvu/book.djvu" "$WORK/f.png" || exit 70; end=$(now)
    floor_times+=($(( (end - start) / 1000 ))); nonempty "$WORK/f.png" "the C floor"
    start=$(now); "$WORK/djvu-swift-floor" 256 "$SAMPLES/djvu/book.djvu" "$WORK/s.png" || exit 70; end=$(now)
    swift_floor_times+=($(( (end - start) / 1000 ))); nonempty "$WORK/s.png" "the Swift floor"
done
echo "DjVu book.djvu page 1 at 256 px:"
echo "  quire thumbnail -s 256                 $(stats "${quire_times[@]}")"
echo "  ddjvu -page=1 -size=256x256 -format=ppm $(stats "${base_times[@]}")"
ratio "${quire_times[*]}" "${base_times[*]}" "issue 39: at most 1"
echo "  floor: C, GIO sniff + ddjvuapi + libpng $(stats "${floor_times[@]}")"
ratio "${floor_times[*]}" "${base_times[*]}" "what the libraries cost" "C floor / ddjvu"
echo "  floor: the same from a static Swift main $(stats "${swift_floor_times[@]}")"
ratio "${swift_floor_times[*]}" "${base_times[*]}" "with the Swift runtime" "Swift floor / ddjvu"
ratio "${quire_times[*]}" "${swift_floor_times[*]}" "Quire's own part" "quire / Swift floor"
