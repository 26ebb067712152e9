#!/usr/bin/env python3
"""Writes the PDFs find and copy are tested and measured on, into DIR (default: Samples/generated).

- find-1000.pdf   1000 A4 pages of text (Helvetica, 30 lines a page); the word "xylophone"
                  occurs once, on page 900 only (the find benchmark), "quartz" on every page.
- find-rotated.pdf  1 page with /Rotate 90 and a line of text (boxes must follow the rotation).
- find-cases.pdf  3 pages: 1 has "Café résumé naïve" and regex characters as text
                  ("a.b*c (x+y) [z]?"); 2 has no text at all (a drawing, as a scan would);
                  3 has "CAFE" in capitals and "fox" twice on a line.

Deterministic, written by hand with the samples' PDF writer (base-14 font, WinAnsiEncoding).
"""
import os
import sys

from pdf_writer import write_pdf, stream

WORDS = ("amber basalt cobalt delta ember fjord garnet harbor indigo jasper kelp lumen meadow "
         "nickel onyx pewter quill russet sable tundra umber velvet willow yarrow zenith").split()


def text_page(lines):
    body = [b"BT /F1 11 Tf 14 TL 72 770 Td"]
    for line in lines:
        body.append(b"(" + line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("cp1252") + b") '")
    body.append(b"ET")
    return b"\n".join(body)


def write(path, contents, rotate=0):
    n = len(contents)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(n)) + b"] /Count %d >>" % n,
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    for i, content in enumerate(contents):
        turn = b" /Rotate %d" % rotate if rotate else b""
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842]%s /Resources << /Font << /F1 3 0 R >> >> "
                       b"/Contents %d 0 R >>" % (turn, 5 + 2 * i))
        objects.append(stream(b"", content, compress=True))
    write_pdf(path, objects)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "generated")
    os.makedirs(out, exist_ok=True)
    pages = []
    for page in range(1, 1001):
        lines = []
        for line in range(30):
            words = " ".join(WORDS[(page * 7 + line * 3 + k) % len(WORDS)] for k in range(8))
            lines.append("Page %d line %d: %s quartz." % (page, line + 1, words) if line == 0
                         else "Line %d of page %d: %s." % (line + 1, page, words))
        if page == 900:
            lines[12] = "Here, on page 900 only, is the xylophone clause."
        pages.append(text_page(lines))
    write(os.path.join(out, "find-1000.pdf"), pages)
    write(os.path.join(out, "find-cases.pdf"), [
        text_page(["Café résumé naïve", "Literal a.b*c (x+y) [z]? here", "The end"]),
        b"0.2 0.4 0.6 rg 72 300 450 400 re f",
        text_page(["CAFE in capitals", "fox and fox"]),
    ])
    write(os.path.join(out, "find-rotated.pdf"), [text_page(["Rotated words here"])], rotate=90)


main()
