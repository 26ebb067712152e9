#!/usr/bin/env python3
"""Writes one-page PDFs whose page is one Flate-compressed image, into DIR (default: Samples/generated).

The same 1000x750 picture (gradients, shapes with hard edges, a little noise) on a 400x300 pt
page, stored in the ways a thumbnailer's image fast path must read, or must leave to poppler:

- image-page-rgb.pdf         DeviceRGB, FlateDecode, no predictor
- image-page-png.pdf         the same pixels with PNG predictors (Predictor 15, every row filter type)
- image-page-gray.pdf        DeviceGray
- image-page-icc.pdf         ICCBased with /N 3 (a minimal profile stream; poppler falls back to RGB)
- image-page-text.pdf        the RGB image plus a line of text on top          (not the fast path)
- image-page-partial.pdf     the RGB image covering the left half of the page (white on the right)
- image-page-margins.pdf     the RGB image inside white margins (300x220 pt at 50, 40)
- image-page-tiny.pdf        the RGB image covering a sixteenth of the page    (not the fast path)
- image-page-tiff.pdf        TIFF predictor 2                                  (not the fast path)
- image-page-indexed.pdf     an Indexed colour space                           (not the fast path)
- image-page-16bit.pdf       16 bits per component                             (not the fast path)
- image-page-truncated.pdf   the RGB stream cut to half its length             (not the fast path)
- image-page-small.pdf       a 300x225 image (less than twice a 256 px thumbnail)

Deterministic, written by hand (no PDF library), valid xref tables.
"""
import os
import sys
import zlib

from pdf_writer import write_pdf

WIDTH, HEIGHT = 1000, 750
PAGE_W, PAGE_H = 400, 300


def picture(width, height):
    """RGB rows: a diagonal gradient, a red disc, a dark bar, a checkerboard corner, light noise."""
    rows = []
    seed = 12345
    cx, cy, r2 = width * 0.35, height * 0.45, (min(width, height) * 0.22) ** 2
    for y in range(height):
        row = bytearray(width * 3)
        for x in range(width):
            red = (x * 255) // width
            green = (y * 255) // height
            blue = 255 - ((x + y) * 255) // (width + height)
            if (x - cx) ** 2 + (y - cy) ** 2 < r2:
                red, green, blue = 220, 30, 40
            elif height * 0.7 < y < height * 0.78 and x > width * 0.1:
                red, green, blue = 20, 20, 60
            elif x > width * 0.8 and y < height * 0.2 and ((x // 25) + (y // 25)) % 2 == 0:
                red, green, blue = 250, 250, 250
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            noise = (seed >> 16) % 9 - 4
            row[3 * x] = max(0, min(255, red + noise))
            row[3 * x + 1] = max(0, min(255, green + noise))
            row[3 * x + 2] = max(0, min(255, blue + noise))
        rows.append(bytes(row))
    return rows


def png_filter(rows, bpp):
    """Each row prefixed by a PNG filter type byte, cycling through None, Sub, Up, Average, Paeth."""
    out = bytearray()
    previous = bytes(len(rows[0]))
    for index, row in enumerate(rows):
        kind = index % 5
        filtered = bytearray(len(row))
        for i in range(len(row)):
            a = row[i - bpp] if i >= bpp else 0
            b = previous[i]
            c = previous[i - bpp] if i >= bpp else 0
            if kind == 0:
                predicted = 0
            elif kind == 1:
                predicted = a
            elif kind == 2:
                predicted = b
            elif kind == 3:
                predicted = (a + b) // 2
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                predicted = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            filtered[i] = (row[i] - predicted) & 0xFF
        out += bytes([kind]) + filtered
        previous = row
    return bytes(out)


def tiff_filter(rows, bpp):
    out = bytearray()
    for row in rows:
        out += bytes([row[i] if i < bpp else (row[i] - row[i - bpp]) & 0xFF for i in range(len(row))])
    return bytes(out)


def image_page(path, image_dict, data, content=None, extra=(), fonts=b""):
    content = content or b"q %d 0 0 %d 0 0 cm /Im0 Do Q\n" % (PAGE_W, PAGE_H)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources << /XObject << /Im0 5 0 R >>%s >> "
        b"/Contents 4 0 R >>" % (PAGE_W, PAGE_H, fonts),
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /XObject /Subtype /Image " + image_dict + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream",
    ]
    objects.extend(extra)
    write_pdf(path, objects)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "generated")
    os.makedirs(out, exist_ok=True)
    rows = picture(WIDTH, HEIGHT)
    raw = b"".join(rows)
    rgb = b"/Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode" % (WIDTH, HEIGHT)
    flate = zlib.compress(raw, 6)

    image_page(os.path.join(out, "image-page-rgb.pdf"), rgb, flate)
    image_page(os.path.join(out, "image-page-png.pdf"),
               rgb + b" /DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns %d >>" % WIDTH,
               zlib.compress(png_filter(rows, 3), 6))
    gray_rows = [bytes((row[3 * x] * 30 + row[3 * x + 1] * 59 + row[3 * x + 2] * 11) // 100 for x in range(WIDTH)) for row in rows]
    image_page(os.path.join(out, "image-page-gray.pdf"),
               b"/Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode" % (WIDTH, HEIGHT),
               zlib.compress(b"".join(gray_rows), 6))
    image_page(os.path.join(out, "image-page-icc.pdf"),
               b"/Width %d /Height %d /ColorSpace [/ICCBased 6 0 R] /BitsPerComponent 8 /Filter /FlateDecode" % (WIDTH, HEIGHT),
               flate, extra=[b"<< /N 3 /Alternate /DeviceRGB /Length 0 >>\nstream\n\nendstream"])
    image_page(os.path.join(out, "image-page-text.pdf"), rgb, flate,
               content=b"q %d 0 0 %d 0 0 cm /Im0 Do Q BT /F1 24 Tf 20 20 Td (Hello) Tj ET\n" % (PAGE_W, PAGE_H),
               extra=[b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"], fonts=b" /Font << /F1 6 0 R >>")
    image_page(os.path.join(out, "image-page-partial.pdf"), rgb, flate,
               content=b"q %d 0 0 %d 0 0 cm /Im0 Do Q\n" % (PAGE_W // 2, PAGE_H))
    image_page(os.path.join(out, "image-page-margins.pdf"), rgb, flate, content=b"q 300 0 0 220 50 40 cm /Im0 Do Q\n")
    image_page(os.path.join(out, "image-page-tiny.pdf"), rgb, flate,
               content=b"q %d 0 0 %d 10 10 cm /Im0 Do Q\n" % (PAGE_W // 4, PAGE_H // 4))
    image_page(os.path.join(out, "image-page-tiff.pdf"),
               rgb + b" /DecodeParms << /Predictor 2 /Colors 3 /BitsPerComponent 8 /Columns %d >>" % WIDTH,
               zlib.compress(tiff_filter(rows, 3), 6))
    palette = bytes(v for i in range(256) for v in (i, 255 - i, (i * 7) % 256))
    image_page(os.path.join(out, "image-page-indexed.pdf"),
               b"/Width %d /Height %d /ColorSpace [/Indexed /DeviceRGB 255 <%s>] /BitsPerComponent 8 /Filter /FlateDecode"
               % (WIDTH, HEIGHT, palette.hex().encode()),
               zlib.compress(b"".join(row[0::3] for row in rows), 6))
    image_page(os.path.join(out, "image-page-16bit.pdf"),
               b"/Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 16 /Filter /FlateDecode" % (WIDTH, HEIGHT),
               zlib.compress(b"".join(bytes(v for byte in row for v in (byte, byte)) for row in rows), 6))
    image_page(os.path.join(out, "image-page-truncated.pdf"), rgb, flate[: len(flate) // 2])
    small = picture(300, 225)
    image_page(os.path.join(out, "image-page-small.pdf"),
               b"/Width 300 /Height 225 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode",
               zlib.compress(b"".join(small), 6))


if __name__ == "__main__":
    main()
