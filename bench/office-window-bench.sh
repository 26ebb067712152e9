#!/bin/bash
# Issue 26's window figures, in the real GTK window (quire look) under Xvfb:
#   - warm: "a 20-page .docx: first page on screen ≤ 300 ms when the previewer service or a
#     viewer already has a warm worker" — the window open on another .docx (its worker's
#     LibreOffice started and busy with it), then Right; and the previewer service (Nautilus's
#     Space, then the selection moving on: ShowFile of one .docx, then of the timed one);
#   - cold: "no slower than soffice --headless --convert-to pdf of the same file (what Sushi
#     waits for), and sooner where page 1 can be shown before the rest" — `quire look FILE`
#     started fresh (window, worker and LibreOffice all cold) until page 1 is on screen, beside
#     soffice converting the same file (its profile already made), for the 20-page .docx and a
#     ~440-page one (page 1 is shown from LibreOffice's layout before the PDF export of the rest).
#
#   bench/office-window-bench.sh QUIRE [RUNS]
#
# The timed documents carry a red band behind their first paragraph (nothing else on screen is
# pure red): bench/window-probe.c grabs the screen every 10 ms and reports the first grab with
# ≥ 2000 red pixels (with -b, red pixels that were not red before the key or call). The clock
# includes starting xdotool or gdbus (a few ms): the figures err high.
# A benchmark, not a test: it prints medians and the bars, and never fails on a number.
set -uo pipefail
QUIRE=${1:?usage: $0 QUIRE [RUNS]}
RUNS=${2:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
QUIRE=$(cd "$(dirname "$QUIRE")" && pwd)/$(basename "$QUIRE")
for tool in Xvfb xdotool cc soffice python3 gdbus; do
    command -v "$tool" >/dev/null || { echo "office-window-bench: $tool is not installed" >&2; exit 69; }
done

. "$ROOT/bench/lib/window-bench.sh"
window_bench_start office-window-bench

# The documents, written by LibreOffice from flat ODF: report (20 pages, a page break before
# each section), long (~440 pages of running text), plain (20 pages, no red: the file before).
python3 - "$WORK" <<'PY'
import random, sys
out = sys.argv[1]
NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
      'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3"')
def document(paragraphs, red):
    styles = ('<office:automatic-styles><style:style style:name="Break" style:family="paragraph">'
              '<style:paragraph-properties fo:break-before="page"/></style:style>'
              '<style:style style:name="Red" style:family="paragraph"><style:paragraph-properties '
              'fo:background-color="#ff0000" fo:padding="0.4cm"/></style:style></office:automatic-styles>')
    first = '<text:p text:style-name="Red">Quarterly report</text:p>' if red else '<text:p>Quarterly report</text:p>'
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document {NS} office:mimetype="application/vnd.oasis.opendocument.text">'
            f'{styles}<office:body><office:text>{first}{"".join(paragraphs)}</office:text></office:body></office:document>')
BREAK = ' text:style-name="Break"'
sections = [f'<text:p{BREAK if n > 1 else ""}>Section {n}. ' + 'The quick brown fox jumps over the lazy dog. ' * 12 + '</text:p>'
            for n in range(1, 21)]
words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor".split()
r = random.Random(5)
running = ['<text:p>' + ' '.join(r.choice(words) for _ in range(60)) + '</text:p>' for _ in range(4000)]
for name, paragraphs, red in [("report", sections, True), ("long", running, True), ("plain", sections, False)]:
    open(f"{out}/{name}.fodt", "w").write(document(paragraphs, red))
PY
PROFILE=$WORK/soffice-profile
soffice -env:UserInstallation=file://$PROFILE --headless --convert-to docx --outdir "$WORK" \
    "$WORK/report.fodt" "$WORK/long.fodt" "$WORK/plain.fodt" >/dev/null 2>&1 || { echo "office-window-bench: soffice failed" >&2; exit 70; }
cat "$WORK"/*.docx > /dev/null

window_bench_display office-window-bench


# Cold: a fresh `quire look FILE` until page 1's red band is on screen.
cold() {
    local out
    out=$("$WORK/window-probe" -t 30 -- "$QUIRE" look --no-resume "$1")
    page_ms <<<"$out"
    VIEWER_PID=$(sed -n 's/.*pid=\([0-9]*\).*/\1/p' <<<"$out")
    sleep 0.5
    stop_viewer
}

# soffice --convert-to pdf of the same file (milliseconds).
soffice_ms() {
    local t0 t1
    t0=$(date +%s%N)
    soffice -env:UserInstallation=file://$PROFILE --headless --convert-to pdf --outdir "$WORK/out" "$1" >/dev/null 2>&1
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000000 ))
}

# Warm: the window open on plain.docx (laid out: the worker's LibreOffice is running), then Right.
warm() {
    "$QUIRE" look --no-resume "$WORK/plain.docx" "$WORK/report.docx" >/dev/null 2>&1 &
    VIEWER_PID=$!
    local window
    window=$(wait_window "plain.docx")
    [ -n "$window" ] || { echo -1; stop_viewer; return; }
    sleep 3
    eval "$(xdotool getwindowgeometry --shell "$window" 2>/dev/null | tail -5)"
    xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT / 2)) click 1
    sleep 0.3
    "$WORK/window-probe" -b -t 10 -- xdotool key Right | page_ms
    stop_viewer
}

# The previewer service, warm: ShowFile(plain.docx), then ShowFile(report.docx).
previewer() {
    ensure_previewer
    show_file "$WORK/plain.docx"
    sleep 3
    "$WORK/window-probe" -b -t 10 -- gdbus call --session --dest org.gnome.NautilusPreviewer \
        --object-path /org/gnome/NautilusPreviewer --method org.gnome.NautilusPreviewer2.ShowFile \
        "file://$WORK/report.docx" "" false | page_ms
}


echo "== office: $(soffice --version 2>/dev/null | head -1); quire look, Xvfb, $RUNS runs each =="
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
mkdir -p "$WORK/out"
soffice_ms "$WORK/report.docx" >/dev/null   # the profile's first use
for doc in report long; do
    q=""; s=""
    for _ in $(seq 1 "$RUNS"); do
        q+="$(cold "$WORK/$doc.docx") "
        s+="$(soffice_ms "$WORK/$doc.docx") "
    done
    qm=$(tr ' ' '\n' <<<"$q" | grep . | median); sm=$(tr ' ' '\n' <<<"$s" | grep . | median)
    pages=$(pdfinfo "$WORK/out/$doc.pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }')
    printf "cold %-7s (%s pages): quire look page 1 on screen %s   soffice --convert-to pdf %s   ratio soffice/quire %s\n" \
        "$doc" "${pages:-?}" "$(tr ' ' '\n' <<<"$q" | grep . | summary)" "$(tr ' ' '\n' <<<"$s" | grep . | summary)" \
        "$(awk -v a="$sm" -v b="$qm" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
done
ensure_previewer   # here, not in a run's $(…): its process id stays known
w=""; p=""
for _ in $(seq 1 "$RUNS"); do w+="$(warm) "; p+="$(previewer) "; done
echo "warm, window: Right from a laid-out .docx to the 20-page .docx's page 1: $(tr ' ' '\n' <<<"$w" | grep . | summary)"
echo "warm, previewer service: ShowFile of the 20-page .docx after another: $(tr ' ' '\n' <<<"$p" | grep . | summary)"
echo "bars: warm <= 300 ms; cold no slower than soffice (ratio >= 1.00)"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
