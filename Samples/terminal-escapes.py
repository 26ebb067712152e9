#!/usr/bin/env python3
"""Files whose names, titles and tags carry terminal escape sequences, written into OUT/escapes/
(issue 41): each would set the terminal's title (OSC 0) and write the clipboard (OSC 52) if a
writer passed it on raw.
  osc-names.zip   entries named with OSC 0 … BEL, OSC 52 … BEL, a C1 CSI and a newline
  osc-title.pdf   a one-page PDF whose Info /Title (UTF-16BE) and /Author hold OSC 0 and OSC 52
  osc-tags.mp3    media/song.mp3's audio under an ID3v2.3 tag whose title and artist hold them
Usage: terminal-escapes.py OUT (after media.sh, for the MP3's audio)."""
import os, struct, sys, time, zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pdf_writer import write_pdf

TITLE = "\x1b]0;PWNED-TITLE\x07"
CLIPBOARD = "\x1b]52;c;UFdORUQtQ0xJUA==\x07"   # base64 "PWNED-CLIP"

def zip_names(path):
    names = [
        "title" + TITLE + ".txt",
        "clip" + CLIPBOARD + ".txt",
        "csi\u009b31mred.txt",
        "plain.txt",
    ]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in names:
            info = zipfile.ZipInfo(name, date_time=time.gmtime(1700000000)[:6])
            archive.writestr(info, b"escape test\n")

def pdf_string_utf16(text):
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode() + b">"

def title_pdf(path):
    content = b"BT /F1 24 Tf 72 720 Td (Escapes in the title) Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Title " + pdf_string_utf16("Report" + TITLE + CLIPBOARD) + b" /Author " + pdf_string_utf16("Mallory" + CLIPBOARD) + b" >>",
    ]
    write_pdf(path, objects, trailer=b" /Info 6 0 R")

def tagged_mp3(path, source):
    with open(source, "rb") as f:
        data = f.read()
    if data[:3] == b"ID3":   # drop the existing tag: 10-byte header + synchsafe size
        size = (data[6] << 21) | (data[7] << 14) | (data[8] << 7) | data[9]
        data = data[10 + size:]
    def frame(name, value):
        body = b"\x03" + value.encode()   # UTF-8
        return name + struct.pack(">IH", len(body), 0) + body
    frames = frame(b"TIT2", "Song" + TITLE) + frame(b"TPE1", "Band" + CLIPBOARD) + frame(b"TALB", "Album\x1b[2J")
    size = len(frames)
    synchsafe = bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F])
    with open(path, "wb") as f:
        f.write(b"ID3\x03\x00\x00" + synchsafe + frames + data)

def main(out):
    folder = os.path.join(out, "escapes")
    os.makedirs(folder, exist_ok=True)
    zip_names(os.path.join(folder, "osc-names.zip"))
    title_pdf(os.path.join(folder, "osc-title.pdf"))
    song = os.path.join(out, "media", "song.mp3")
    if os.path.exists(song):
        tagged_mp3(os.path.join(folder, "osc-tags.mp3"), song)

if __name__ == "__main__":
    main(sys.argv[1])
