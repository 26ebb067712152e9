#!/usr/bin/env python3
"""Derives Quire's container, GIF, EXIF, PostScript and hostile samples from the generator's
output. Usage: derive.py OUTDIR. Every constant here is mirrored in Generator/main.swift's Spec
or Samples/README.md."""
import os, random, struct, sys, zipfile, zlib

out = sys.argv[1]
parts = os.path.join(out, ".parts")
def path(name): return os.path.join(out, name)
def part(name):
    with open(os.path.join(parts, name), "rb") as f: return f.read()
def write(name, data):
    with open(path(name), "wb") as f: f.write(data)

# --- EXIF-rotated JPEG: photo.jpg (80x60, left red / right blue) with orientation 6 ----------
jpeg = open(path("photo.jpg"), "rb").read()
assert jpeg[:2] == b"\xff\xd8"
tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1) \
     + struct.pack("<HHIHH", 0x0112, 3, 1, 6, 0) + struct.pack("<I", 0)
payload = b"Exif\x00\x00" + tiff
write("photo-rotated.jpg", jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:])

# --- A photo that records where it was taken: photo-gps.jpg (GPS IFD: 48° 51' 30.12" N,
# 2° 17' 40.2" W; Make "QuireCam") — shown only with `info --show-location` -----------------------
def entry(tag, kind, count, value): return struct.pack("<HHI", tag, kind, count) + value
make = b"QuireCam\x00"
ifd0 = struct.pack("<H", 2) + entry(0x010F, 2, len(make), struct.pack("<I", 38)) \
     + entry(0x8825, 4, 1, struct.pack("<I", 48)) + struct.pack("<I", 0)
gps = struct.pack("<H", 4) + entry(1, 2, 2, b"N\x00\x00\x00") + entry(2, 5, 3, struct.pack("<I", 102)) \
    + entry(3, 2, 2, b"W\x00\x00\x00") + entry(4, 5, 3, struct.pack("<I", 126)) + struct.pack("<I", 0)
rationals = struct.pack("<6I", 48, 1, 51, 1, 3012, 100) + struct.pack("<6I", 2, 1, 17, 1, 4020, 100)
tiff = b"II*\x00" + struct.pack("<I", 8) + ifd0 + make + b"\x00" + gps + rationals
assert len(b"II*\x00" + struct.pack("<I", 8) + ifd0) == 38 and len(tiff) == 150
payload = b"Exif\x00\x00" + tiff
write("photo-gps.jpg", jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:])

# --- A photo's details: photo.jpg with an EXIF block naming the camera, the shot and a GPS IFD ----
def ifd(entries, start, extra):
    """Little-endian IFD at `start` (TIFF offsets); values over 4 bytes go after it into `extra`."""
    body = struct.pack("<H", len(entries))
    data_at = start + 2 + 12 * len(entries) + 4
    out_extra = b""
    for tag, typ, count, value in entries:
        if isinstance(value, bytes) and len(value) > 4:
            body += struct.pack("<HHII", tag, typ, count, data_at + len(extra) + len(out_extra))
            out_extra += value
        elif isinstance(value, bytes):
            body += struct.pack("<HHI", tag, typ, count) + value.ljust(4, b"\0")
        elif typ == 3:
            body += struct.pack("<HHIHH", tag, typ, count, value, 0)
        else:
            body += struct.pack("<HHII", tag, typ, count, value)
    return body + struct.pack("<I", 0), out_extra
def rational(n, d): return struct.pack("<II", n, d)
make, model, lens = b"FUJIFILM\0", b"X-T30\0", b"XF35mmF2 R WR\0"
date = b"2024:05:01 13:45:09\0"
# Layout: header (8) | IFD0 | its data | Exif IFD | its data | GPS IFD
ifd0_entries = [(0x010F, 2, len(make), make), (0x0110, 2, len(model), model), (0x0112, 3, 1, 1),
                (0x8769, 4, 1, 0), (0x8825, 4, 1, 0)]
first, first_extra = ifd(ifd0_entries, 8, b"")
exif_at = 8 + len(first) + len(first_extra)
exif_entries = [(0x829A, 5, 1, rational(1, 125)), (0x829D, 5, 1, rational(28, 10)), (0x8827, 3, 1, 200),
                (0x9003, 2, len(date), date), (0x920A, 5, 1, rational(35, 1)), (0xA434, 2, len(lens), lens)]
exif_ifd, exif_extra = ifd(exif_entries, exif_at, b"")
gps_at = exif_at + len(exif_ifd) + len(exif_extra)
gps_ifd, _ = ifd([(0x0000, 1, 4, bytes([2, 3, 0, 0]))], gps_at, b"")
ifd0_entries[3] = (0x8769, 4, 1, exif_at)
ifd0_entries[4] = (0x8825, 4, 1, gps_at)
first, first_extra = ifd(ifd0_entries, 8, b"")
tiff = b"II*\x00" + struct.pack("<I", 8) + first + first_extra + exif_ifd + exif_extra + gps_ifd
payload = b"Exif\x00\x00" + tiff
write("photo-exif.jpg", jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:])

# --- GIF 300x200, left red / right blue (LZW with a clear code every two pixels) --------------
def gif(width, height, color):
    palette = bytes([255, 0, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255])
    codes, bits = [], 3
    pixels = [color(x, y) for y in range(height) for x in range(width)]
    for i in range(0, len(pixels), 2):
        codes.append(4)
        codes.extend(pixels[i:i + 2])
    codes.append(5)
    stream, acc, n = bytearray(), 0, 0
    for code in codes:
        acc |= code << n; n += bits
        while n >= 8: stream.append(acc & 0xFF); acc >>= 8; n -= 8
    if n: stream.append(acc & 0xFF)
    blocks = b"".join(bytes([len(stream[i:i + 255])]) + bytes(stream[i:i + 255]) for i in range(0, len(stream), 255))
    return (b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF1, 0, 0) + palette
            + b"," + struct.pack("<HHHHB", 0, 0, width, height, 0) + b"\x02" + blocks + b"\x00;")
write("format.gif", gif(300, 200, lambda x, y: 0 if x < 150 else 1))

# --- Containers with embedded previews ---------------------------------------------------------
def container(name, entries, mimetype=None):
    with zipfile.ZipFile(path(name), "w") as z:
        if mimetype is not None:
            z.writestr(zipfile.ZipInfo("mimetype"), mimetype, compress_type=zipfile.ZIP_STORED)
        for entry, data in entries:
            z.writestr(entry, data, compress_type=zipfile.ZIP_DEFLATED)

green_png, green_jpg, red_png = part("green.png"), part("green.jpg"), part("red.png")
container("document.odt", [
    ("META-INF/manifest.xml", '<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>'),
    ("content.xml", '<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"/>'),
    ("Thumbnails/thumbnail.png", green_png),
], mimetype="application/vnd.oasis.opendocument.text")
container("document.docx", [
    ("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    ("_rels/.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>'),
    ("word/document.xml", '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>'),
    ("docProps/thumbnail.jpeg", green_jpg),
])
container("document.pages", [
    ("Index/Document.iwa", b"\x00" * 16),
    ("QuickLook/Thumbnail.jpg", green_jpg),
])
container("book.epub", [
    ("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'),
    ("OEBPS/content.opf", '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">quire-sample</dc:identifier><dc:title>Quire Sample Book</dc:title></metadata><manifest><item id="a" href="images/a-first.png" media-type="image/png"/><item id="c" href="images/the%20cover.png" media-type="image/png" properties="cover-image"/><item id="ch" href="chapter.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="ch"/></spine></package>'),
    ("OEBPS/chapter.xhtml", '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>Chapter</p></body></html>'),
    ("OEBPS/images/a-first.png", red_png),
    ("OEBPS/images/the cover.png", green_png),
], mimetype="application/epub+zip")
container("comic.cbz", [
    ("page10.png", red_png), ("page2.png", red_png), ("__MACOSX/._page0.png", b"junk"), ("page1.png", green_png),
])

# --- Comic books: series.cbz and series.cbt (tar), the same pages and ComicInfo.xml ---------------
# Natural name order: page1 (green cover), page2 (blue), page3-4 (a 400x300 spread: left red,
# right yellow), page10 (magenta) — in plain name order page10 would come second.
def png(width, height, color):
    rows = b"".join(b"\x00" + b"".join(bytes(color(x, y)) for x in range(width)) for y in range(height))
    def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
comic_info = ('<?xml version="1.0"?><ComicInfo xmlns:xsd="http://www.w3.org/2001/XMLSchema"><Title>The Quire Sample</Title>'
              '<Series>Quire Comics</Series><Number>7</Number><Writer>A. Writer &amp; B. Artist</Writer><Year>2026</Year>'
              '<PageCount>4</PageCount></ComicInfo>')
comic_pages = [
    ("ComicInfo.xml", comic_info.encode()),
    ("book/page10.png", png(200, 300, lambda x, y: (255, 0, 255))),
    ("book/page2.png", png(200, 300, lambda x, y: (0, 0, 255))),
    ("book/page3-4.png", png(400, 300, lambda x, y: (255, 0, 0) if x < 200 else (255, 255, 0))),
    ("__MACOSX/book/._page0.png", b"junk"),
    ("book/notes.txt", b"not a page"),
    ("book/page1.png", png(200, 300, lambda x, y: (0, 255, 0))),
]
container("series.cbz", comic_pages)
# --- An EPUB book to read: novel.epub (cover, two chapters, a picture, a script and outside links
# that must never be loaded) and drm.epub (content encrypted: refused as DRM-protected) ----------
novel_opf = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
             '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">quire-novel</dc:identifier>'
             '<dc:title>The Quire Reader</dc:title><dc:creator>A. Author &amp; B. Writer</dc:creator></metadata>'
             '<manifest><item id="cover" href="images/cover.png" media-type="image/png" properties="cover-image"/>'
             '<item id="fig" href="images/figure%201.png" media-type="image/png"/>'
             '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
             '<item id="c1" href="text/one.xhtml" media-type="application/xhtml+xml"/>'
             '<item id="c2" href="text/two.xhtml" media-type="application/xhtml+xml"/></manifest>'
             '<spine><itemref idref="nav" linear="no"/><itemref idref="c1"/><itemref idref="c2"/></spine></package>')
chapter_one = ('<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head>'
               '<title>One</title><link rel="stylesheet" href="http://127.0.0.1:9/style.css"/>'
               '<script>document.write("never run")</script><style>p { color: red }</style></head><body>'
               '<h1>Chapter One</h1><p>It was a <em>quiet</em> night and the <strong>printer</strong> '
               'hummed.</p><p>A link <a href="http://127.0.0.1:9/away">away</a> and&#160;an&nbsp;entity &amp; more.</p>'
               '<img src="../images/figure%201.png" alt="A blue figure"/><img src="http://127.0.0.1:9/remote.png" alt="remote"/>'
               '</body></html>')
chapter_two = ('<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><body>'
               '<h2>Chapter Two</h2><ul><li>first thing</li><li>second thing</li></ul>'
               '<blockquote id="quote"><p>Quoted words.</p></blockquote><pre id="código">let x = 1\nlet y = 2</pre></body></html>')
# The book's contents (EPUB 3 navigation document): chapter one, then chapter two's quotation and
# its code beneath it (fragments: the lines those elements start), and an entry whose place is
# outside the book. The landmarks list is not the contents.
novel_nav = ('<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>'
             '<nav epub:type="landmarks"><ol><li><a href="text/one.xhtml">Not in the reading order</a></li></ol></nav>'
             '<nav epub:type="toc" id="toc"><h1>Contents</h1><ol><li><a href="text/one.xhtml">The   First\n Chapter</a></li>'
             '<li><a href="text/two.xhtml#quote">A <em>quotation</em></a><ol><li><a href="text/two.xhtml#c%C3%B3digo">Some code</a></li></ol></li>'
             '<li><a href="http://127.0.0.1:9/away">Elsewhere</a></li></ol></nav></body></html>')
blue_png = png(40, 30, lambda x, y: (0, 0, 255))
container("novel.epub", [
    ("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'),
    ("OEBPS/content.opf", novel_opf),
    ("OEBPS/nav.xhtml", novel_nav),
    ("OEBPS/text/one.xhtml", chapter_one),
    ("OEBPS/text/two.xhtml", chapter_two),
    ("OEBPS/images/cover.png", green_png),
    ("OEBPS/images/figure 1.png", blue_png),
], mimetype="application/epub+zip")
container("drm.epub", [
    ("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'),
    ("META-INF/encryption.xml", '<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><enc:CipherData><enc:CipherReference URI="OEBPS/text/one.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>'),
    ("OEBPS/content.opf", novel_opf),
    ("OEBPS/text/one.xhtml", bytes(range(256)) * 4),
], mimetype="application/epub+zip")


import io, tarfile
with tarfile.open(path("series.cbt"), "w") as t:
    for entry, data in comic_pages:
        info = tarfile.TarInfo(entry); info.size = len(data); info.mtime = 1700000000
        t.addfile(info, io.BytesIO(data))

# --- Hostile and damaged containers ---------------------------------------------------------------
with zipfile.ZipFile(path("bomb.odt"), "w") as z:
    z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text", compress_type=zipfile.ZIP_STORED)
    z.writestr("content.xml", "<x/>", compress_type=zipfile.ZIP_DEFLATED)
    # 100 MiB of zeros inflated (about 100 KiB stored): over the 64 MiB entry limit.
    z.writestr("Thumbnails/thumbnail.png", b"\x89PNG\r\n\x1a\n" + bytes(100 << 20), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
with zipfile.ZipFile(path("many-entries.cbz"), "w") as z:
    for i in range(20001):
        z.writestr("p%05d.txt" % i, b"", compress_type=zipfile.ZIP_STORED)
write("truncated.odt", open(path("document.odt"), "rb").read()[:400])
write("truncated.epub", open(path("book.epub"), "rb").read()[:300])

# --- EPUB contents: old-book.epub lists its contents in an EPUB 2 NCX (no navigation document);
# plain-book.epub lists none, so its headings stand in ---------------------------------------------
def small_book(name, opf_extra_items, spine_attributes, files):
    opf = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id">'
           '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">%s</dc:identifier><dc:title>%s</dc:title></metadata>'
           '<manifest>%s<item id="a" href="a.xhtml" media-type="application/xhtml+xml"/><item id="b" href="b.xhtml" media-type="application/xhtml+xml"/></manifest>'
           '<spine%s><itemref idref="a"/><itemref idref="b"/></spine></package>') % (name, name, opf_extra_items, spine_attributes)
    container(name + ".epub", [
        ("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'),
        ("content.opf", opf)] + files, mimetype="application/epub+zip")
def chapter(body):
    return '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body>' + body + '</body></html>'
small_book("old-book", '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>', ' toc="ncx"', [
    ("toc.ncx", '<?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><head/><docTitle><text>Old Book</text></docTitle>'
                '<navMap><navPoint id="p1" playOrder="1"><navLabel><text>Part &amp; One</text></navLabel><content src="a.xhtml"/>'
                '<navPoint id="p2" playOrder="2"><navLabel><text>Its Second Scene</text></navLabel><content src="a.xhtml#scene2"/></navPoint></navPoint>'
                '<navPoint id="p3" playOrder="3"><navLabel><text>Part Two</text></navLabel><content src="b.xhtml"/></navPoint></navMap>'
                '<pageList><pageTarget id="pg1" type="normal" value="1"><navLabel><text>Page 1</text></navLabel><content src="a.xhtml"/></pageTarget></pageList></ncx>'),
    # Long enough to scroll in a window: 60 numbered paragraphs a part.
    ("a.xhtml", chapter('<p>The first scene.</p>' + ''.join('<p>Scene one, paragraph %d.</p>' % n for n in range(1, 61))
                        + '<p id="scene2">The second scene.</p>' + ''.join('<p>Scene two, paragraph %d.</p>' % n for n in range(1, 61)))),
    ("b.xhtml", chapter('<p>The second part.</p>' + ''.join('<p>Part two, paragraph %d.</p>' % n for n in range(1, 61)))),
])
small_book("plain-book", "", "", [
    ("a.xhtml", chapter('<h1>Opening</h1><p>Words.</p><h2>A Detail</h2><p>More words.</p>')),
    ("b.xhtml", chapter('<h1>Closing</h1><p>The end.</p>')),
])

# --- Pixel bomb: a valid PNG header declaring 100000 x 100000 RGBA pixels --------------------------
def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
write("pixel-bomb.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100000, 100000, 8, 6, 0, 0, 0))
      + chunk(b"IDAT", zlib.compress(bytes(1024))) + chunk(b"IEND", b""))

# --- Damaged images and SVG -------------------------------------------------------------------------
rng = random.Random(11)
write("truncated.png", open(path("format.png"), "rb").read()[:200])
write("truncated.jpg", open(path("format.jpg"), "rb").read()[:300])
write("garbage.jpg", bytes(rng.randrange(256) for _ in range(4096)))
write("garbage.gif", b"GIF89a" + bytes(rng.randrange(256) for _ in range(512)))
write("truncated.svg", b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect x="0" y="0" wid')
write("external.svg", b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100">'
      b'<rect width="100" height="100" fill="#00ff00"/><image href="file:///etc/passwd" width="100" height="100"/>'
      b'<image xlink:href="http://example.invalid/x.png" width="100" height="100"/></svg>')
write("invalid-utf8.txt", b"valid line\n\xff\xfe broken bytes \xc3\x28 here\n\tindented after a tab\n")

# --- PostScript: 2 A4 pages (595 x 842 pt), page 1 has a red rectangle at (72, 72) from the top-left, 200 x 100 pt
ps = """%!PS-Adobe-3.0
%%BoundingBox: 0 0 595 842
%%Pages: 2
%%DocumentMedia: A4 595 842 0 () ()
%%EndComments
%%Page: 1 1
1 0 0 setrgbcolor
72 670 200 100 rectfill
0 0 1 setrgbcolor
400 400 50 0 360 arc fill
showpage
%%Page: 2 2
0 0.6 0 setrgbcolor
300 62 moveto 400 62 lineto 350 142 lineto closepath fill
showpage
%%EOF
"""
write("document.ps", ps.encode())
eps = """%!PS-Adobe-3.0 EPSF-3.0
%%BoundingBox: 0 0 200 100
%%Pages: 1
%%EndComments
0 0 1 setrgbcolor
0 0 200 100 rectfill
%%EOF
"""
write("drawing.eps", eps.encode())
# A PostScript page that never finishes: the CLI's --timeout must end it.
write("infinite-loop.ps", b"%!PS-Adobe-3.0\n%%Pages: 1\n%%Page: 1 1\n{ } loop\nshowpage\n%%EOF\n")
write("garbage.ps", b"%!PS-Adobe-3.0\n" + bytes(rng.randrange(256) for _ in range(2048)))
