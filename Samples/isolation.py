#!/usr/bin/env python3
"""Samples for the one isolation rule (issue 41), written into OUT:

- evil-tmpdir.ps: PostScript that looks for a directory /tmp/quire-evil-N/ (N from 0 to 63)
  holding quire-secret.txt (the tests make one and run quire with it as TMPDIR; a wildcard search
  of /tmp would walk all of it), then tries to read that
  file, delete quire-victim.txt beside it and create quire-planted.txt there. Each attempt that
  succeeds paints a black band (top: read, middle: delete, bottom: create); a grey bar on the left
  is always painted, so a page that rendered at all is told from one that did not.
- no-pages.ps: `%!PS` that defines a font and never calls showpage (like Debian's
  /usr/share/vim/vim90/print/mac-roman.ps): no page to thumbnail.
- blank-page.ps: one page with nothing drawn on it (showpage alone): white, unlike no-pages.ps.
- pattern.pdf: one page filled with rgb(201, 13, 177), the colour a warm worker's memory holds
  before it is given no-pages.ps.
- deep-q.pdf: a content stream of six million nested `q` (save graphics state), about 23 KB
  deflated: poppler's state stack grows without bound.
- big-image.pdf: one page drawing a 24000 x 24000 DeviceRGB image (Flate, all white): decoding it
  whole is 1.7 GB.
- archives/links-outside.tar: `linkdir -> /tmp` then `linkdir/x.txt` (unpacks through the link,
  outside the folder), a hard link `passwd-link` to /etc/passwd, and a plain `ok.txt`.
- office-flat.fodt / office-flat.fods: flat ODF (one XML file, no zip), as LibreOffice writes
  with "Flat XML ODF".
Deterministic; Python standard library only."""
import io, os, sys, tarfile, zlib

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from pdf_writer import stream, write_pdf

STAMP = 1700000000

def main(out):
    os.makedirs(out, exist_ok=True)
    def write(name, data):
        with open(os.path.join(out, name), "wb") as f: f.write(data)

    write("evil-tmpdir.ps", b"""%!PS-Adobe-3.0
%%BoundingBox: 0 0 200 200
%%Pages: 1
%%EndComments
%%Page: 1 1
/cat { 1 index length 1 index length add string dup 0 4 index putinterval dup 3 index length 3 index putinterval 3 1 roll pop pop } def
/dir () def
0 1 63 { /n exch def
  /candidate (/tmp/quire-evil-) n 3 string cvs cat (/) cat def
  { candidate (quire-secret.txt) cat (r) file closefile /dir candidate def } stopped pop
} for
0.5 setgray 0 0 20 200 rectfill
0 setgray
dir length 0 gt {
  { dir (quire-secret.txt) cat (r) file 64 string readstring pop length 0 gt { 20 140 180 60 rectfill } if } stopped pop
  { dir (quire-victim.txt) cat deletefile 20 70 180 60 rectfill } stopped pop
  { dir (quire-planted.txt) cat (w) file dup (planted) writestring closefile 20 0 180 60 rectfill } stopped pop
} if
showpage
%%EOF
""")
    write("no-pages.ps", b"%!PS\n% A prolog with no page: defines things and never calls showpage.\n"
                         b"/Helvetica findfont 12 scalefont setfont\n/encoding-vector 256 array def\n")

    write("blank-page.ps", b"%!PS-Adobe-3.0\n%%BoundingBox: 0 0 200 200\n%%Pages: 1\n%%EndComments\n%%Page: 1 1\nshowpage\n%%EOF\n")
    write_pdf(os.path.join(out, "pattern.pdf"), [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
        stream(b"", b"0.788 0.051 0.694 rg 0 0 200 200 re f\n"),
    ])
    write_pdf(os.path.join(out, "deep-q.pdf"), [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
        stream(b"", b"q " * 6_000_000 + b"0 0 1 rg 0 0 100 100 re f\n", compress=True),
    ])
    side = 24000
    compressor = zlib.compressobj(9)
    row = b"\xff" * (side * 3)
    image = bytearray()
    for _ in range(side):
        image += compressor.compress(row)
    image += compressor.flush()
    write_pdf(os.path.join(out, "big-image.pdf"), [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>",
        stream(b"", b"q 200 0 0 200 0 0 cm /Im0 Do Q\n"),
        b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n"
        % (side, side, len(image)) + bytes(image) + b"\nendstream",
    ])

    folder = os.path.join(out, "archives")
    os.makedirs(folder, exist_ok=True)
    with tarfile.open(os.path.join(folder, "links-outside.tar"), "w") as archive:
        def add(name, kind=tarfile.REGTYPE, target="", data=b""):
            info = tarfile.TarInfo(name)
            info.type, info.linkname, info.mtime, info.size = kind, target, STAMP, len(data)
            archive.addfile(info, io.BytesIO(data) if data else None)
        add("ok.txt", data=b"fine\n")
        add("linkdir", tarfile.SYMTYPE, "/tmp")
        add("linkdir/x.txt", data=b"lands in /tmp\n")
        add("passwd-link", tarfile.LNKTYPE, "/etc/passwd")

    body = ('<office:body><office:text><text:p text:style-name="Standard">Flat ODF text document</text:p>'
            '<text:p text:style-name="Standard">Second paragraph.</text:p></office:text></office:body>')
    write("office-flat.fodt", flat_odf("application/vnd.oasis.opendocument.text", body))
    body = ('<office:body><office:spreadsheet><table:table table:name="Sheet1"><table:table-row>'
            '<table:table-cell office:value-type="string"><text:p>Flat</text:p></table:table-cell>'
            '<table:table-cell office:value-type="float" office:value="42"><text:p>42</text:p></table:table-cell>'
            '</table:table-row></table:table></office:spreadsheet></office:body>')
    write("office-flat.fods", flat_odf("application/vnd.oasis.opendocument.spreadsheet", body))

def flat_odf(mimetype, body):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
            'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
            'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
            'office:version="1.3" office:mimetype="%s">' % mimetype + body + '</office:document>\n').encode()

if __name__ == "__main__":
    main(sys.argv[1])
