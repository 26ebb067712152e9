#!/usr/bin/env bash
# Fonts, archives and video thumbnails (issue 27's figures), beside the anchors:
#   - an archive of 100,000 entries listed (quire info) and its first listing page drawn
#     (quire preview), against `bsdtar -tvf`/`unzip -l` where installed (target: ≤ 1 s);
#   - a font's specimen page and its "Aa" thumbnail, one process each.
# Usage: bench/media-bench.sh QUIRE [RUNS]. Prints times; never fails on a number.
set -euo pipefail
Q=$(realpath "$1"); RUNS=${2:-5}
work=$(mktemp -d /tmp/quire-media-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import io, sys, tarfile, zipfile
out = sys.argv[1]
with zipfile.ZipFile(out + "/many.zip", "w", zipfile.ZIP_STORED) as z:
    for i in range(100_000):
        z.writestr(f"tree/{i // 1000:03d}/file-{i:06d}.txt", b"")
with tarfile.open(out + "/many.tar.gz", "w:gz") as t:
    for i in range(100_000):
        info = tarfile.TarInfo(f"tree/{i // 1000:03d}/file-{i:06d}.txt")
        t.addfile(info, io.BytesIO(b""))
PY
best() {   # best wall time in ms of RUNS runs of "$@"
    local best=999999 start end ms
    for _ in $(seq "$RUNS"); do
        start=$(date +%s%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s%N)
        ms=$(( (end - start) / 1000000 )); (( ms < best )) && best=$ms
    done
    echo "$best"
}
echo "== archives: 100,000 entries (best of $RUNS)"
for archive in many.zip many.tar.gz; do
    info=$(best "$Q" info "$work/$archive")
    page=$(best "$Q" preview --page 1 "$work/$archive" -o "$work/page.png")
    line="$archive: quire info (listing) ${info} ms; quire preview page 1 ${page} ms"
    if command -v bsdtar >/dev/null; then line+="; bsdtar -tvf $(best bsdtar -tvf "$work/$archive") ms"; fi
    if [[ $archive == *.zip ]] && command -v unzip >/dev/null; then line+="; unzip -l $(best unzip -l "$work/$archive") ms"; fi
    echo "  $line (target ≤ 1000 ms)"
done
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
echo "== fonts: $(basename "$font") (best of $RUNS)"
echo "  specimen page (quire preview): $(best "$Q" preview "$font" -o "$work/specimen.png") ms"
echo "  thumbnail 256 px (quire thumbnail): $(best "$Q" thumbnail -s 256 "$font" "$work/aa.png") ms"
if command -v gnome-thumbnail-font >/dev/null; then
    echo "  gnome-thumbnail-font 256 px: $(best gnome-thumbnail-font --size 256 "$font" "$work/gnome.png") ms"
fi

# Video thumbnails of a tree of clips (GStreamer test patterns, VP8 and Theora, 10–60 s), one
# process per file as a file manager's thumbnailer runs, against ffmpegthumbnailer -s 256 and
# totem-video-thumbnailer -s 256 (Totem 43, GNOME's own, DEB_BENCH) where installed, with the
# ratios; then Quire's batch (2 jobs) over the same tree. (The window's poster and specimen
# figure is bench/media-window-bench.sh.)
if command -v gst-launch-1.0 >/dev/null; then
    mkdir -p "$work/clips"
    # Clips with something to show, as a home directory's are (the earlier tree's black, white
    # and red test patterns made every thumbnailer hunt for a frame that is not blank): colour
    # bars, a ball on black, a pinwheel, spokes, colours, and bars after a black first second.
    patterns=(smpte ball pinwheel spokes colors)
    caps=video/x-raw,width=640,height=360,framerate=25/1
    for i in 1 2 3 4 5; do
        frames=$(( 250 * i ))
        if (( i % 2 )); then
            gst-launch-1.0 -q videotestsrc num-buffers=$frames pattern=${patterns[i - 1]} ! $caps \
                ! videoconvert ! vp8enc deadline=1 cpu-used=16 ! webmmux ! filesink location="$work/clips/clip-$i.webm"
        else
            gst-launch-1.0 -q videotestsrc num-buffers=$frames pattern=${patterns[i - 1]} ! $caps \
                ! videoconvert ! theoraenc ! oggmux ! filesink location="$work/clips/clip-$i.ogv"
        fi
    done
    gst-launch-1.0 -q concat name=c ! videoconvert ! theoraenc ! oggmux ! filesink location="$work/clips/clip-6.ogv" \
        videotestsrc num-buffers=25 pattern=black ! $caps ! c. videotestsrc num-buffers=1475 pattern=smpte ! $caps ! c.
    each() { local start end; start=$(date +%s%N); for clip in "$work"/clips/*; do "$@" "$clip" "$work/out.png" >/dev/null 2>&1 || true; done; end=$(date +%s%N); echo $(( (end - start) / 1000000 )); }
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
    ff() { ffmpegthumbnailer -s 256 -i "$1" -o "$2"; }
    # Best of RUNS passes over the tree, the tools taking turns within each pass (other work on
    # the machine then weighs on all three alike; the clips are in the page cache after the first).
    quire_ms=999999; ff_ms=999999; totem_ms=999999
    for _ in $(seq "$RUNS"); do
        ms=$(each "$Q" thumbnail -s 256); (( ms < quire_ms )) && quire_ms=$ms
        if command -v ffmpegthumbnailer >/dev/null; then ms=$(each ff); (( ms < ff_ms )) && ff_ms=$ms; fi
        if command -v totem-video-thumbnailer >/dev/null; then ms=$(each totem-video-thumbnailer -s 256); (( ms < totem_ms )) && totem_ms=$ms; fi
    done
    echo "== video thumbnails: 6 clips, 10–60 s, 640×360, one process per file (best of $RUNS passes)"
    echo "  quire thumbnail -s 256: $quire_ms ms"
    if command -v ffmpegthumbnailer >/dev/null; then
        echo "  ffmpegthumbnailer -s 256: $ff_ms ms — quire/ffmpegthumbnailer $(ratio "$quire_ms" "$ff_ms") (goal ≤ 1)"
    fi
    if command -v totem-video-thumbnailer >/dev/null; then
        echo "  totem-video-thumbnailer -s 256: $totem_ms ms — quire/totem $(ratio "$quire_ms" "$totem_ms") (goal < 1)"
    fi
    start=$(date +%s%N)
    XDG_CACHE_HOME="$work/cache" "$Q" thumbnail --batch -r --jobs 2 "$work/clips" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    echo "  quire thumbnail --batch --jobs 2: $(( (end - start) / 1000000 )) ms"
fi
