#!/usr/bin/env python3
"""Small PDFs of every file structure poppler has to parse, as fuzzing seeds (scripts/fuzz.sh):
classic xref table, xref stream, object streams, linearized, incremental update (two xref
sections chained by /Prev), broken xref offsets, no xref at all, RC4-40/RC4-128/AES-128/AES-256
encryption, images (Flate, ASCIIHex, inline), an outline, page labels and a link annotation.
Each is a few hundred bytes to a few KiB, so that libFuzzer mutates structure, not payload.
    Samples/pdf-structures.py OUTPUT_DIRECTORY        (needs qpdf for the derived variants)
"""
import os, subprocess, sys, zlib

from pdf_writer import stream, write_pdf

def write_structure(path, objects, extra_trailer=b""):
    """Every structure seed has an /Info dictionary (object 2)."""
    return write_pdf(path, objects, trailer=b" /Info 2 0 R" + extra_trailer)

def base_objects(content=b"BT /F1 24 Tf 72 720 Td (Quire fuzz seed) Tj ET"):
    return [
        b"<< /Type /Catalog /Pages 3 0 R >>",
        b"<< /Title (Seed) /Author (Quire) /CreationDate (D:20240102030405+01'00') >>",
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 6 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        stream(b"", content),
    ]

def main(out):
    os.makedirs(out, exist_ok=True)
    p = lambda name: os.path.join(out, name)
    plain = write_structure(p("plain.pdf"), base_objects())

    # Vector drawing, a Flate-compressed content stream, an image XObject (Flate), an
    # ASCIIHex image and an inline image.
    drawing = (b"q 1 0 0 RG 4 w 72 72 m 300 300 l S Q q 0 0 1 rg 100 400 200 100 re f Q "
               b"q 0.5 g 300 500 m 350 600 400 500 c h f Q q 64 0 0 64 72 600 cm /Im1 Do Q "
               b"q 32 0 0 32 200 600 cm /Im2 Do Q q 16 0 0 16 300 600 cm BI /W 2 /H 2 /CS /G /BPC 8 ID \x00\xff\xff\x00 EI Q")
    pixels = bytes((x * 16) % 256 for x in range(4 * 4 * 3))
    objects = base_objects()
    objects[3] = (b"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] /Rotate 90 /Resources << /Font << /F1 5 0 R >> "
                  b"/XObject << /Im1 7 0 R /Im2 8 0 R >> >> /Contents 6 0 R >>")
    objects[5] = stream(b"/Filter /FlateDecode", zlib.compress(drawing))
    objects.append(stream(b"/Type /XObject /Subtype /Image /Width 4 /Height 4 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode",
                          zlib.compress(pixels)))
    objects.append(stream(b"/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /ASCIIHexDecode",
                          b"00FFFF00>"))
    write_structure(p("images.pdf"), objects)

    # Two pages, an outline, page labels and a link annotation.
    objects = base_objects()
    objects[0] = b"<< /Type /Catalog /Pages 3 0 R /Outlines 7 0 R /PageLabels << /Nums [0 << /S /r >> 1 << /P (A-) /S /D /St 5 >>] >> /PageMode /UseOutlines >>"
    objects[2] = b"<< /Type /Pages /Kids [4 0 R 9 0 R] /Count 2 >>"
    objects[3] = (b"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 6 0 R "
                  b"/Annots [<< /Type /Annot /Subtype /Link /Rect [72 700 300 750] /A << /S /URI /URI (https://example.org/) >> >>] >>")
    objects.append(b"<< /Type /Outlines /First 8 0 R /Last 8 0 R /Count 1 >>")
    objects.append(b"<< /Title (Page two) /Parent 7 0 R /Dest [9 0 R /XYZ 0 792 0] >>")
    objects.append(b"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 300 300] /Contents 10 0 R >>")
    objects.append(stream(b"", b"0 0 1 rg 10 10 280 280 re f"))
    write_structure(p("outline-labels-link.pdf"), objects)

    # Incremental update: a second body, xref section and trailer appended, /Prev to the first.
    first_xref = int(plain.rsplit(b"startxref\n", 1)[1].split(b"\n")[0])
    update = bytearray(plain)
    offset6 = len(update)
    update += b"6 0 obj\n" + stream(b"", b"BT /F1 24 Tf 72 700 Td (Updated incrementally) Tj ET") + b"\nendobj\n"
    offset2 = len(update)
    update += b"2 0 obj\n<< /Title (Seed, revised) /ModDate (D:20250101000000Z) >>\nendobj\n"
    xref = len(update)
    update += b"xref\n0 1\n0000000000 65535 f \n2 1\n%010d 00000 n \n6 1\n%010d 00000 n \n" % (offset2, offset6)
    update += b"trailer\n<< /Size 7 /Root 1 0 R /Info 2 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n" % (first_xref, xref)
    open(p("incremental.pdf"), "wb").write(update)

    # Broken xref: every offset off by 7, and a startxref past the end; no xref at all.
    broken = bytearray(plain)
    table = broken.index(b"xref\n0 7\n")
    lines = broken[table:].split(b"\n")
    for i, line in enumerate(lines):
        if line.endswith(b" 00000 n "):
            lines[i] = b"%010d 00000 n " % (int(line[:10]) + 7)
    broken = broken[:table] + b"\n".join(lines)
    open(p("broken-xref.pdf"), "wb").write(bytes(broken))
    open(p("bad-startxref.pdf"), "wb").write(plain.rsplit(b"startxref", 1)[0] + b"startxref\n999999\n%%EOF\n")
    open(p("no-xref.pdf"), "wb").write(plain[:plain.index(b"xref\n")])

    # Derived with qpdf: xref + object streams, linearized, encrypted four ways.
    def qpdf(*arguments):
        subprocess.run(["qpdf", *arguments], check=True)
    source = p("outline-labels-link.pdf")
    qpdf("--object-streams=generate", "--compress-streams=y", source, p("object-streams.pdf"))
    qpdf("--object-streams=generate", "--linearize", source, p("linearized.pdf"))
    qpdf("--allow-weak-crypto", "--encrypt", "fuzz", "owner", "40", "--", p("plain.pdf"), p("encrypted-rc4-40.pdf"))
    qpdf("--allow-weak-crypto", "--encrypt", "", "owner", "128", "--use-aes=n", "--", p("plain.pdf"), p("encrypted-rc4-128-empty-user.pdf"))
    qpdf("--encrypt", "fuzz", "owner", "128", "--use-aes=y", "--", p("plain.pdf"), p("encrypted-aes-128.pdf"))
    qpdf("--encrypt", "fuzz", "owner", "256", "--", p("images.pdf"), p("encrypted-aes-256.pdf"))
    print("PDF structure seeds written to", out)

main(sys.argv[1] if len(sys.argv) > 1 else "Samples/generated-structures")
