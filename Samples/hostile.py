#!/usr/bin/env python3
"""Writes Quire's hostile-input corpus into OUTDIR (created; must be empty or missing).

Usage: hostile.py OUTDIR [SAMPLES]

SAMPLES is a generated sample set (Samples/generate.sh; default Samples/generated): the damaged
samples it already holds (truncated, garbage, pixel bomb, zip bomb, password PDF, endless
PostScript…) are copied, and its document.pdf is the seed of the truncated and bit-flipped PDFs.
Everything is deterministic (fixed seeds). Python standard library only. Nothing here is run or
parsed by the generator itself: it only writes bytes, names and special files.

The corpus directory holds only corpus entries (no manifest file): what each one is for is in
the comments below and in Samples/README.md.
"""
import os, random, stat, struct, sys, zipfile, zlib

out = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
samples = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "generated")
os.makedirs(out, exist_ok=True)

def p(name):
    return os.path.join(os.fsencode(out), name if isinstance(name, bytes) else name.encode())
def write(name, data):
    with open(p(name), "wb") as f: f.write(data)
def sample(name):
    with open(os.path.join(samples, name), "rb") as f: return f.read()

# --- Reused damaged samples ---------------------------------------------------------------------
for name in ["truncated.pdf", "garbage.pdf", "encrypted.pdf", "pixel-bomb.png", "bomb.odt",
             "many-entries.cbz", "truncated.png", "truncated.jpg", "truncated.svg", "truncated.odt",
             "truncated.epub", "garbage.jpg", "garbage.gif", "garbage.ps", "infinite-loop.ps",
             "external.svg", "invalid-utf8.txt"]:
    write(name, sample(name))

document = sample("document.pdf")
rng = random.Random(20261122)

# --- Truncated PDFs (seeded cut points) ------------------------------------------------------------
for i, cut in enumerate(sorted(rng.sample(range(16, len(document) - 1), 4))):
    write("pdf-truncated-%d.pdf" % i, document[:cut])
write("pdf-header-only.pdf", b"%PDF-1.7\n")

# --- Bit-flipped PDFs (seeded) ---------------------------------------------------------------------
for i in range(6):
    data = bytearray(document)
    for _ in range(1 + i * 8):
        at = rng.randrange(len(data))
        data[at] ^= 1 << rng.randrange(8)
    write("pdf-bitflip-%d.pdf" % i, bytes(data))

# --- Hand-built PDFs: correct xref offsets unless the damage is the point -------------------------
def pdf(objects, trailer_extra=b"", xref=True, startxref=None):
    body = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, obj in enumerate(objects, start=1):
        offsets.append(len(body))
        body += b"%d 0 obj\n" % number + obj + b"\nendobj\n"
    at = len(body)
    if xref:
        body += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
        for offset in offsets: body += b"%010d 00000 n \n" % offset
    body += b"trailer\n<< /Size %d /Root 1 0 R " % (len(objects) + 1) + trailer_extra + b">>\n"
    body += b"startxref\n" + (startxref if startxref is not None else b"%d" % at) + b"\n%%EOF\n"
    return bytes(body)

catalog = b"<< /Type /Catalog /Pages 2 0 R >>"
def page_pdf(media, content=b"0 0 1 rg 10 10 100 100 re f"):
    return pdf([catalog, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox " + media + b" /Contents 4 0 R >>",
                b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"])

write("huge-mediabox.pdf", page_pdf(b"[0 0 1000000000 1000000000]"))
write("huge-mediabox-exponent.pdf", page_pdf(b"[0 0 1e9 1e9]"))
write("negative-mediabox.pdf", page_pdf(b"[0 0 -1000000000 -5]"))
write("zero-mediabox.pdf", page_pdf(b"[0 0 0 0]"))
write("nan-mediabox.pdf", page_pdf(b"[0 0 nan inf]"))
# Deep nesting: arrays and dictionaries 50 000 levels deep in the page's resources and contents.
depth = 50000
write("deep-arrays.pdf", pdf([catalog, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Deep " + b"[" * depth + b"]" * depth + b" >>"]))
write("deep-dicts.pdf", pdf([catalog, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Deep " + b"<< /A " * depth + b">> " * depth + b">>"]))
write("deep-content.pdf", page_pdf(b"[0 0 200 200]", b"q " * depth + b"Q " * depth))
# A page tree whose Kids point back at itself, and a Count that lies.
write("page-tree-loop.pdf", pdf([catalog, b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
      b"<< /Type /Pages /Parent 2 0 R /Kids [3 0 R 2 0 R] /Count 1000000 >>"]))
write("huge-page-count.pdf", pdf([catalog, b"<< /Type /Pages /Kids [3 0 R] /Count 2147483647 >>",
      b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"]))
# Broken cross-reference tables.
write("xref-wrong-offsets.pdf", pdf([catalog, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"], startxref=b"7"))
write("xref-past-end.pdf", pdf([catalog, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"], startxref=b"999999999999"))
write("xref-missing.pdf", pdf([catalog, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"], xref=False))
loop = pdf([catalog, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"])
xref_at = int(loop.rsplit(b"startxref\n", 1)[1].split(b"\n")[0])
write("xref-prev-loop.pdf", loop.replace(b"/Root 1 0 R ", b"/Root 1 0 R /Prev %d " % xref_at))
write("xref-garbage-entries.pdf", loop.replace(b" 00000 n \n", b" 99999 x \n"))
# An object stream that claims a huge number of objects and a huge /Length.
write("huge-stream-length.pdf", pdf([catalog, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
      b"<< /Length 99999999999 /Filter /FlateDecode >>\nstream\n" + zlib.compress(bytes(1 << 20), 9) + b"\nendstream"]))

# --- Image pixel bombs (valid headers, absurd sizes) -------------------------------------------------
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
write("pixel-bomb-wide.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2147483647, 1, 8, 6, 0, 0, 0))
      + chunk(b"IDAT", zlib.compress(bytes(1024))) + chunk(b"IEND", b""))
write("pixel-bomb.gif", b"GIF89a" + struct.pack("<HHBBB", 65535, 65535, 0x80, 0, 0) + bytes(6)
      + b"," + struct.pack("<HHHHB", 0, 0, 65535, 65535, 0) + b"\x02\x02\x4c\x01\x00;")
sof = b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, 65500, 65500, 3) + b"\x01\x22\x00\x02\x11\x01\x03\x11\x01"
write("pixel-bomb.jpg", b"\xff\xd8" + sof + b"\xff\xda\x00\x0c\x03\x01\x00\x02\x11\x03\x11\x00\x3f\x00" + bytes(64) + b"\xff\xd9")
write("pixel-bomb.bmp", b"BM" + struct.pack("<IHHI", 1000, 0, 0, 54) + struct.pack("<IiiHHIIiiII", 40, 1000000, 1000000, 1, 24, 0, 0, 0, 0, 0, 0) + bytes(64))
write("pixel-bomb.svg", b'<svg xmlns="http://www.w3.org/2000/svg" width="1000000000" height="1000000000"><rect width="100%" height="100%" fill="red"/></svg>')
# Billion laughs: nested entities.
laughs = b'<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
for i in range(1, 10): laughs += b'<!ENTITY %s "%s">' % (b"a" + str(i).encode(), (b"&a" + (str(i - 1).encode() if i > 1 else b"") + b";") * 10)
laughs += b']>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&a9;</text></svg>'
write("billion-laughs.svg", laughs)

# --- Zip bombs and path traversal in containers --------------------------------------------------------
def container(name, entries, mimetype=None):
    with open(p(name), "wb") as f, zipfile.ZipFile(f, "w") as z:
        if mimetype is not None:
            z.writestr(zipfile.ZipInfo("mimetype"), mimetype, compress_type=zipfile.ZIP_STORED)
        for entry, data in entries:
            z.writestr(entry, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=6)

png_header = b"\x89PNG\r\n\x1a\n"
bomb = png_header + bytes(80 << 20)           # 80 MiB inflated (over the 64 MiB default), ~80 KiB stored
opf = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><manifest>'
       '<item id="c" href="cover.png" media-type="image/png" properties="cover-image"/></manifest></package>')
container_xml = ('<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
                 '<rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
container("bomb.epub", [("META-INF/container.xml", container_xml), ("content.opf", opf), ("cover.png", bomb)],
          mimetype="application/epub+zip")
container("bomb.cbz", [("page1.png", bomb)])
container("bomb-opf.epub", [("META-INF/container.xml", container_xml), ("content.opf", b"<package>" + b" " * (80 << 20))],
          mimetype="application/epub+zip")
container("many-small-entries.epub", [("META-INF/container.xml", container_xml)]
          + [("x/%05d" % i, b"") for i in range(15000)], mimetype="application/epub+zip")
tiny_png = sample("quadrants.png")
container("traversal.cbz", [("../../pwned.png", tiny_png), ("/tmp/quire-absolute-pwned.png", tiny_png),
                            ("..\\..\\pwned-backslash.png", tiny_png)])
container("traversal.odt", [("../../Thumbnails/thumbnail.png", tiny_png), ("Thumbnails/../../../x", tiny_png)],
          mimetype="application/vnd.oasis.opendocument.text")
container("traversal.epub", [("META-INF/container.xml", container_xml.replace("content.opf", "../../../etc/passwd"))],
          mimetype="application/epub+zip")
# Entry names with newlines, shell metacharacters and invalid UTF-8.
with open(p("hostile-names.cbz"), "wb") as f, zipfile.ZipFile(f, "w") as z:
    for name in ["$(touch pwned).png", "`touch pwned`.png", "a;touch pwned;.png", "line\nbreak.png", "-rf.png"]:
        z.writestr(name, tiny_png)
    info = zipfile.ZipInfo("x")
    info.filename = "\udcff\udcfe.png".encode("utf-8", "surrogateescape").decode("latin-1")
    z.writestr(info, tiny_png)
# A zip claiming to be ODF whose central directory is cut.
odt = sample("document.odt")
write("cut-central-directory.odt", odt[:-30])

# --- Hostile file names (contents: a valid PDF and a damaged one, so both paths are taken) -------------
truncated = sample("truncated.pdf")
names = {
    b"new\nline.pdf": truncated,
    b"new\nline-ok.pdf": document,
    b"-rf.pdf": document,
    b"--help.pdf": truncated,
    b"-o.pdf": document,
    b"$(touch pwned).pdf": truncated,
    b"$(touch pwned)-ok.pdf": document,
    b"; touch pwned;.pdf": truncated,
    b"`touch pwned`.pdf": truncated,
    b"| touch pwned &.pdf": document,
    b"'quote\".pdf": truncated,
    b"\xff\xfe invalid utf8.pdf": truncated,
    b"\xff\xfe invalid utf8-ok.pdf": document,
    b"tab\there\rcr.pdf": truncated,
    b"\x1b[31mescape.pdf": truncated,
    b"* glob ?.pdf": truncated,
}
for name, data in names.items(): write(name, data)

# --- Special files -------------------------------------------------------------------------------------
os.mkfifo(p("fifo.pdf"), 0o600)
os.symlink("loop-b.pdf", p("loop-a.pdf"))
os.symlink("loop-a.pdf", p("loop-b.pdf"))
os.symlink("self-loop.pdf", p("self-loop.pdf"))
os.symlink("does-not-exist.pdf", p("dangling.pdf"))
os.symlink("/dev/zero", p("dev-zero.pdf"))
os.symlink("/dev/urandom", p("dev-urandom.png"))
os.symlink("/proc/self/mem", p("proc-mem.pdf"))
os.mkdir(p("directory.pdf"))
write("empty.pdf", b"")
write("empty.png", b"")
write("unreadable.pdf", document)
os.chmod(p("unreadable.pdf"), 0)
write("sparse-huge.pdf", b"")
with open(p("sparse-huge.pdf"), "r+b") as f:
    f.write(b"%PDF-1.7\n"); f.truncate(5 << 30)      # 5 GiB, sparse: over every size limit
print("hostile corpus written to %s (%d entries)" % (out, len(os.listdir(out))))
