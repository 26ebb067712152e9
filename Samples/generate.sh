#!/usr/bin/env bash
# Generates Quire's sample set into Samples/generated (or $1).
# Builds Samples/Generator (cairo + gdk-pixbuf) with swiftc, then derives the encrypted,
# truncated, garbage and misleadingly named variants from its output.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
out="${1:-$here/generated}"
build="$root/.build/samples"
mkdir -p "$out" "$build"
# Nothing to do when the inputs are those of the last complete run into $out: every file under
# Samples/ (scripts, generator, committed samples) and which of the optional tools are here.
# make test, desktop-test and fuzz-smoke each ask for the samples; only the first makes them.
inputs=$( { cd "$here" && find . \( -path ./generated -o -name __pycache__ \) -prune -o -type f -print0 |
              sort -z | xargs -0 sha256sum
            for tool in heif-enc cjxl exiftool soffice gst-launch-1.0 c44 cjb2 djvm qpdf; do command -v "$tool" || echo "no $tool"; done
          } | sha256sum | cut -d' ' -f1)
stamp="$build/inputs-$(printf '%s' "$(cd "$out" && pwd)" | sha256sum | cut -c1-16)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$inputs" && -f "$out/document.pdf" ]]; then
    echo "samples in $out are up to date"
    exit 0
fi
rm -f "$stamp"

flags=()
for f in $(pkg-config --cflags cairo gdk-pixbuf-2.0 2>/dev/null); do
    case "$f" in -pthread) ;; *) flags+=(-Xcc "$f") ;; esac
done
if [[ ! -x "$build/generator" || "$here/Generator/main.swift" -nt "$build/generator" || "$here/Generator/GdkPixbuf/shim.h" -nt "$build/generator" ]]; then
    swiftc -O -I "$root/Sources/CCairo" -I "$here/Generator/GdkPixbuf" "${flags[@]}" \
        $(pkg-config --libs cairo gdk-pixbuf-2.0) "$here/Generator/main.swift" -o "$build/generator"
fi
"$build/generator" "$out"

# Encrypted: user password "secret" (AES-256).
qpdf --encrypt secret owner-secret 256 -- "$out/document.pdf" "$out/encrypted.pdf"
# report.pdf: the README's and man pages' examples' "report.pdf" (DocumentationExamplesTests): the
# three-page document four times, 12 pages, enough for their page ranges (-P 5-10, 2-4,7).
qpdf --empty --pages "$out/document.pdf" "$out/document.pdf" "$out/document.pdf" "$out/document.pdf" -- "$out/report.pdf"
# Truncated: the first 1 KiB of a valid PDF (header and part of the first object).
head -c 1024 "$out/document.pdf" > "$out/truncated.pdf"
# Garbage: deterministic bytes that are no PDF, under a .pdf name.
python3 -c 'import random,sys; r=random.Random(7); sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range(4096)))' > "$out/garbage.pdf"
# Misleading or missing extensions: detection must go by content.
cp "$out/document.pdf" "$out/pdf-named-as.txt"
cp "$out/quadrants.png" "$out/png-without-extension"
cp "$out/photo.jpg" "$out/jpeg-named-as.png"
cp "$out/document.pdf" "$out/pdf-without-extension"
# Image types Debian's gdk-pixbuf has no loader for unless one is installed: a HEIC photo
# (heif-enc, libheif-examples) and a one-page DjVu file (its FORM:DJVU header and INFO chunk).
if command -v heif-enc >/dev/null 2>&1; then
    heif-enc -q 60 -o "$out/photo.heic" "$out/photo.jpg" >/dev/null
    heif-enc -A -q 60 -o "$out/photo.avif" "$out/photo.jpg" >/dev/null
    # A collection: the photo (primary) and the quadrants, each with a thumbnail of 40 pixels.
    heif-enc -q 60 -t 40 -o "$out/collection.heic" "$out/photo.jpg" "$out/quadrants.png" >/dev/null
    head -c 300 "$out/photo.heic" > "$out/truncated.heic"
fi
python3 -c 'import struct,sys; info=struct.pack(">HHBBHBB", 80, 60, 26, 0, 100, 22, 1); chunk=b"INFO"+struct.pack(">I", len(info))+info; sys.stdout.buffer.write(b"AT&TFORM"+struct.pack(">I", 4+len(chunk))+b"DJVU"+chunk)' > "$out/page.djvu"
# Containers, GIF, EXIF-rotated JPEG, PostScript and hostile samples (built in-process in Python).
python3 "$here/derive.py" "$out"
# A HEIC and an AVIF with a camera's EXIF block (heif-enc copies a JPEG's into an Exif item),
# from derive.py's photo-exif.jpg and photo-gps.jpg.
if command -v heif-enc >/dev/null 2>&1; then
    heif-enc -q 60 -o "$out/photo-exif.heic" "$out/photo-exif.jpg" >/dev/null
    heif-enc -A -q 60 -o "$out/photo-gps.avif" "$out/photo-gps.jpg" >/dev/null
fi
# JPEG XL (cjxl, libjxl-tools): the quadrants losslessly, the EXIF-rotated JPEG transcoded (its
# orientation goes into the codestream), and the first half of the photo's (truncated).
if command -v cjxl >/dev/null 2>&1; then
    cjxl "$out/quadrants.png" "$out/quadrants.jxl" -d 0 >/dev/null 2>&1
    cjxl "$out/photo-rotated.jpg" "$out/photo-rotated.jxl" >/dev/null 2>&1
    cjxl "$out/photo.jpg" "$out/photo.jxl" >/dev/null 2>&1
    head -c $(( $(stat -c %s "$out/photo.jxl") / 2 )) "$out/photo.jxl" > "$out/truncated.jxl"
fi
# Animated GIF, APNG and WebP (animations/), written by Pillow.
/usr/bin/python3 -I "$here/animations.py" "$out"
# Animated JPEG XL (cjxl reads the GIF's frames, losslessly): animated.jxl (red, green, blue,
# 100 ms each, loops forever). (cjxl 0.7 reads an APNG's partial frames without their offsets
# and blending: djxl shows them cut out, so partial.png is not made one.)
if command -v cjxl >/dev/null 2>&1; then
    cjxl "$out/animations/animated.gif" "$out/animations/animated.jxl" -d 0 >/dev/null 2>&1
    cjxl "$out/animations/blank-first.gif" "$out/animations/blank-first.jxl" -d 0 >/dev/null 2>&1
fi
# An animated AVIF (an image sequence; Debian 12 has no avifenc): three 60x40 frames (red, green,
# blue) encoded as still AVIFs by heif-enc, their AV1 data put in one track by avif-sequence.py,
# 100 ms each; blank-first.avif (white, red, green) and the hostile and cut ones below.
if command -v heif-enc >/dev/null 2>&1; then
    frames=$(mktemp -d)
    /usr/bin/python3 -I -c 'import sys; from PIL import Image
for name, colour in [("red", (255, 0, 0)), ("green", (0, 255, 0)), ("blue", (0, 0, 255)), ("white", (255, 255, 255))]:
    Image.new("RGB", (60, 40), colour).save(sys.argv[1] + "/" + name + ".png")' "$frames"
    for colour in red green blue white; do heif-enc -A -q 90 -o "$frames/$colour.avif" "$frames/$colour.png" >/dev/null; done
    python3 "$here/avif-sequence.py" "$out/animations/animated.avif" 100 "$frames/red.avif" "$frames/green.avif" "$frames/blue.avif"
    # A blank (white) first frame, then red and green: thumbnails show the red one.
    python3 "$here/avif-sequence.py" "$out/animations/blank-first.avif" 100 "$frames/white.avif" "$frames/red.avif" "$frames/green.avif"
    # Hostile: 20,000 frames (the red one's bytes listed over and over): too many to play.
    python3 "$here/avif-sequence.py" "$out/animations/many-frames.avif" 40 --repeat 20000 "$frames/red.avif"
    # Cut short: the last frames' bytes missing (the track still lists them).
    head -c $(( $(stat -c %s "$out/animations/animated.avif") - 40 )) "$out/animations/animated.avif" > "$out/animations/truncated.avif"
    rm -rf "$frames"
fi
# PDFs that stress one poppler backend or the other (shadings, a huge image, many glyphs).
python3 "$here/shadings.py" "$out"
# Fonts (fonts/): a collection and a WOFF made from DejaVu, a truncated font, a broken table.
python3 "$here/fonts.py" "$out"
# Archives (archives/): a tree as tar.gz/tar.xz/zip, hostile names and links, a zip bomb.
python3 "$here/archives.py" "$out"
# Video and audio (media/): GStreamer's gst-launch-1.0 (a clip whose first second is black, audio
# with and without a cover, a Matroska file with no video stream, a truncated clip).
"$here/media.sh" "$out"
# DjVu (djvu/): a bundled 3-page book with a text layer, the same book indirect, one missing a
# page file, a truncated one (DjVuLibre's c44, cjb2, djvused, djvm, djvmcvt).
"$here/djvu.sh" "$out"
# E-mail (mail/): messages with alternatives and attachments, HTML only, an mbox, a deeply
# nested one, a 20 MB attachment, bytes that are no message (Python's email package).
python3 "$here/mail.py" "$out"
# Issue 41: PostScript that reads, deletes and creates files in TMPDIR, a page-less PostScript, a
# colour pattern, the deep-q and 24000² image PDFs, an archive that unpacks outside, flat ODF.
python3 "$here/isolation.py" "$out"
# Terminal escapes (escapes/): an archive, a PDF title and MP3 tags that would set the terminal's
# title and write its clipboard if passed on raw.
python3 "$here/terminal-escapes.py" "$out"
# Find and copy: a 1000-page text PDF with one word on page 900, accents, regex characters, a page without text.
python3 "$here/find-samples.py" "$out"
# Office documents made by LibreOffice itself (soffice, once per format), when it is installed.
if command -v soffice >/dev/null 2>&1; then
    python3 -I "$here/office.py" "$out"
fi
# Delimited text for --csv-as-spreadsheet: comma, semicolon and tab files of 300 rows.
python3 -I "$here/csv-samples.py" "$out"
# Tables for Quire's own table engine (tables/): encodings, separators, quoting, hostile rows.
python3 -I "$here/table-samples.py" "$out"
# Data (data/): SQLite databases (a corrupt one, one with a hot journal, one with a WAL beside it),
# JSON, Markdown and notebooks for issue 38.
python3 -I "$here/data-samples.py" "$out"
# Office files from other producers (python-docx over Word's template, XlsxWriter).
/usr/bin/python3 -I "$here/office-others.py" "$out"
# Issue 44: a spreadsheet of ~890 printed pages, workbooks encrypted with Excel's default
# password and with a real one (msoffcrypto-tool from .build-pydeps/, installed by make deps).
/usr/bin/python3 -I "$here/office-sheets.py" "$out"
# PDF forms (forms/): ReportLab's AcroForms (every field kind; 20 text fields for the bench), an
# XFA-only form and an encrypted form whose permissions forbid filling in (qpdf).
/usr/bin/python3 -I "$here/forms.py" "$out"
rm -rf "$out/.parts"
# Small committed samples.
cp "$here/files/"* "$out/"
# The real DNG with a GPS position written into it (exiftool, libimage-exiftool-perl): the
# Eiffel Tower's, 48°51'30.12" N 2°17'40.2" E.
if command -v exiftool >/dev/null 2>&1; then
    # (A copy first: exiftool's -o together with -overwrite_original moves the source away.)
    cp "$out/camera.dng" "$out/camera-gps.dng"
    exiftool -q -overwrite_original -GPSLatitude=48.858367 -GPSLatitudeRef=N \
        -GPSLongitude=2.2945 -GPSLongitudeRef=E "$out/camera-gps.dng"
fi
echo "$inputs" > "$stamp"
echo "samples written to $out"
