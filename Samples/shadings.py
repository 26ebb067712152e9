#!/usr/bin/env python3
"""Writes PDFs that stress a renderer's backend, one page each, into DIR (default: Samples/generated):

- shading-function.pdf  a function-based (type 1) smooth shading whose domain maps far beyond the page
- shading-axial.pdf     an axial (type 2) shading with a stitching function
- shading-radial.pdf    a radial (type 3) shading
- shading-mesh.pdf      a Coons patch mesh (type 6) of 8x8 patches
- huge-image.pdf        a 5000x5000 RGB Flate image drawn on a small page
- many-glyphs.pdf       30,000 tiny glyphs of a standard font

Everything is written by hand (no PDF library), deterministic, with a valid xref table.
"""
import math
import os
import struct
import sys
import zlib

from pdf_writer import stream, write_pdf


def page_document(path, content, resources, width=612, height=792, extra=()):
    """Catalog 1, pages 2, page 3, content 4, then `extra` objects from 5."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources %s /Contents 4 0 R >>" % (width, height, resources),
        stream(b"", content, compress=True),
    ]
    objects.extend(extra)
    write_pdf(path, objects)


def shading_page(path, shading):
    page_document(path, b"q /Sh0 sh Q\n", b"<< /Shading << /Sh0 5 0 R >> >>", extra=[shading])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "generated")
    os.makedirs(out, exist_ok=True)

    # Type 1: colour = f(x, y), a PostScript calculator (type 4) function over the unit square,
    # which the shading's /Matrix maps to a square far larger than the page (only the page is
    # visible). poppler's cairo backend divides the whole mapped domain into ~10-pixel patches
    # (> 15 s here); Splash evaluates only the visible pixels.
    function = stream(b"/FunctionType 4 /Domain [0 1 0 1] /Range [0 1 0 1 0 1]",
                      b"{ 2 copy 3000 mul sin 1 add 2 div 3 1 roll 4000 mul cos 1 add 2 div "
                      b"exch 2 copy add 2 div }")
    page_document(os.path.join(out, "shading-function.pdf"), b"q /Sh0 sh Q\n",
                  b"<< /Shading << /Sh0 5 0 R >> >>",
                  extra=[b"<< /ShadingType 1 /ColorSpace /DeviceRGB /Domain [0 1 0 1] "
                         b"/Matrix [20000 0 0 20000 -10000 -10000] /Function 6 0 R >>",
                         function])

    # Type 2: axial, stitching three exponential functions.
    stops = b"[<< /FunctionType 2 /Domain [0 1] /C0 [1 0 0] /C1 [0 1 0] /N 1 >> " \
            b"<< /FunctionType 2 /Domain [0 1] /C0 [0 1 0] /C1 [0 0 1] /N 1 >> " \
            b"<< /FunctionType 2 /Domain [0 1] /C0 [0 0 1] /C1 [1 1 0] /N 2 >>]"
    stitch = b"<< /FunctionType 3 /Domain [0 1] /Functions " + stops + b" /Bounds [0.3 0.6] /Encode [0 1 0 1 0 1] >>"
    shading_page(os.path.join(out, "shading-axial.pdf"),
                 b"<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [0 0 612 792] /Function " + stitch
                 + b" /Extend [true true] >>")

    # Type 3: radial.
    shading_page(os.path.join(out, "shading-radial.pdf"),
                 b"<< /ShadingType 3 /ColorSpace /DeviceRGB /Coords [200 300 20 306 396 380] /Function " + stitch
                 + b" /Extend [true true] >>")

    # Type 6: Coons patch mesh, 8x8 patches covering the page, 16-bit coordinates, 8-bit colours.
    data = bytearray()
    n = 8
    for row in range(n):
        for col in range(n):
            x0, y0 = col / n, row / n
            x1, y1 = (col + 1) / n, (row + 1) / n
            wobble = 0.2 / n

            def point(x, y):
                return struct.pack(">HH", int(max(0, min(1, x)) * 65535), int(max(0, min(1, y)) * 65535))

            # 12 control points, counter-clockwise from the lower left corner.
            pts = [(x0, y0), (x0 - wobble, y0 + (y1 - y0) / 3), (x0 + wobble, y0 + 2 * (y1 - y0) / 3), (x0, y1),
                   (x0 + (x1 - x0) / 3, y1 + wobble), (x0 + 2 * (x1 - x0) / 3, y1 - wobble), (x1, y1),
                   (x1 + wobble, y0 + 2 * (y1 - y0) / 3), (x1 - wobble, y0 + (y1 - y0) / 3), (x1, y0),
                   (x0 + 2 * (x1 - x0) / 3, y0 - wobble), (x0 + (x1 - x0) / 3, y0 + wobble)]
            data += b"\x00" + b"".join(point(x, y) for x, y in pts)
            for cx, cy in [(x0, y0), (x0, y1), (x1, y1), (x1, y0)]:
                data += bytes([int(255 * cx), int(255 * cy), int(255 * (1 - cx * cy))])
    mesh = stream(b"/ShadingType 6 /ColorSpace /DeviceRGB /BitsPerCoordinate 16 /BitsPerComponent 8 "
                  b"/BitsPerFlag 8 /Decode [0 612 0 792 0 1 0 1 0 1]", bytes(data), compress=True)
    page_document(os.path.join(out, "shading-mesh.pdf"), b"q /Sh0 sh Q\n",
                  b"<< /Shading << /Sh0 5 0 R >> >>", extra=[mesh])

    # A 5000x5000 RGB image (75 MB decoded) on a letter page.
    side = 5000
    # Build the image row by row cheaply: a gradient row, repeated with a varying green band.
    compressor = zlib.compressobj(6)
    chunks = []
    base = bytearray(side * 3)
    for x in range(side):
        base[3 * x] = x * 255 // side
        base[3 * x + 2] = 255 - x * 255 // side
    for y in range(side):
        green = y * 255 // side
        base[1::3] = bytes([green]) * side
        chunks.append(compressor.compress(bytes(base)))
    chunks.append(compressor.flush())
    image = b"".join(chunks)
    page_document(os.path.join(out, "huge-image.pdf"), b"q 612 0 0 792 0 0 cm /Im0 Do Q\n",
                  b"<< /XObject << /Im0 5 0 R >> >>",
                  extra=[b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB "
                         b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n" % (side, side, len(image))
                         + image + b"\nendstream"])

    # 30,000 glyphs of 2 pt text: 150 lines of 200 characters.
    lines = [b"BT /F1 2 Tf 2.2 TL 6 786 Td"]
    for line in range(150):
        text = bytes(33 + (line * 7 + i) % 94 for i in range(200)).replace(b"\\", b"/").replace(b"(", b"[").replace(b")", b"]")
        lines.append(b"(" + text + b") '")
    lines.append(b"ET")
    content = (b"\n".join(lines) + b"\n") * 2
    page_document(os.path.join(out, "many-glyphs.pdf"), content,
                  b"<< /Font << /F1 5 0 R >> >>",
                  extra=[b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"])


if __name__ == "__main__":
    main()
