#!/usr/bin/python3
"""Workbooks for issue 44 (written by XlsxWriter, encrypted by msoffcrypto-tool):

    /usr/bin/python3 -I Samples/office-sheets.py OUTDIR

office-long-sheet.xlsx   40,000 rows: LibreOffice prints it on ~890 pages (more than the
                         default --max-pages of 500); a thumbnail needs page 1 only.
office-velvet.xlsx       a small workbook encrypted with Excel's default password
                         "VelvetSweatshop" (what Excel writes for a workbook that is only
                         structure-protected): LibreOffice opens it without asking.
office-encrypted.xlsx    the same workbook encrypted with the password "secret".
office-fuzzed.xls        a valid compound-file header over random bytes: LibreOffice's type
                         detection takes it for plain text, and under LibreOfficeKit Calc's Text
                         Import dialog waited for an answer forever (`soffice --convert-to png`
                         imports it as text in under two seconds).
office-encrypted.doc     office-report.doc (from office.py) with its File Information Block's
                         fEncrypted flag set, as Word sets it on a document saved with a password:
                         LibreOffice 7.4 crashes when LibreOfficeKit reports such a document's
                         password request, so Quire refuses it first. Only when office.py ran.

Debian: python3-xlsxwriter, python3-cryptography, python3-olefile; msoffcrypto-tool 6.1 from
PyPI (`make deps` puts it in .build-pydeps/; Debian's 5.0 cannot encrypt).
"""
import io
import os
import random
import struct
import sys

import xlsxwriter

# msoffcrypto-tool as `make deps` installs it, beside the checkout (before Debian's 5.0, which cannot encrypt).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build-pydeps"))
try:
    from msoffcrypto.format.ooxml import OOXMLFile
except ImportError:
    sys.exit("office-sheets.py: msoffcrypto-tool is missing (make deps installs it into .build-pydeps/)")


def long_sheet(path, rows=40000):
    workbook = xlsxwriter.Workbook(path)
    sheet = workbook.add_worksheet("Ledger")
    bold = workbook.add_format({"bold": True, "font_size": 20})
    sheet.write_row(0, 0, ["LEDGER", "Amount"], bold)
    for row in range(1, rows):
        sheet.write_row(row, 0, [f"entry {row}", row * 3])
    workbook.close()


def small_workbook():
    data = io.BytesIO()
    workbook = xlsxwriter.Workbook(data, {"in_memory": True})
    sheet = workbook.add_worksheet("Tides")
    big = workbook.add_format({"bold": True, "font_size": 28})
    sheet.write_row(0, 0, ["HIGH WATER", "Height"], big)
    for row, (port, height) in enumerate([("Brest", 7.1), ("Dover", 6.4), ("Leith", 5.2)], start=1):
        sheet.write_row(row, 0, [port, height])
    workbook.close()
    return data.getvalue()


def fuzzed_xls(path):
    header = bytearray(512)
    header[0:8] = bytes([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1])
    # Minor and major version, byte order, sector and mini-sector shifts: a valid header.
    struct.pack_into("<HHHHH", header, 0x18, 0x3E, 3, 0xFFFE, 9, 6)
    struct.pack_into("<I", header, 0x2C, 1)      # one FAT sector
    struct.pack_into("<I", header, 0x30, 1)      # the directory at sector 1
    struct.pack_into("<I", header, 0x38, 4096)   # mini stream cutoff
    struct.pack_into("<iIiI", header, 0x3C, -2, 0, -2, 0)
    struct.pack_into("<I", header, 0x4C, 0)
    for index in range(1, 109):
        struct.pack_into("<i", header, 0x4C + 4 * index, -1)
    r = random.Random(44)
    with open(path, "wb") as f:
        f.write(bytes(header) + bytes(r.randrange(256) for _ in range(8192)))


def encrypted_doc(source, path):
    import olefile
    with open(source, "rb") as f:
        data = bytearray(f.read())
    with olefile.OleFileIO(bytes(data)) as ole:
        word = bytearray(ole.openstream("WordDocument").read())
    assert struct.unpack_from("<H", word, 0)[0] == 0xA5EC, "not a Word 97-2003 document"
    flags = struct.unpack_from("<H", word, 0x0A)[0]
    struct.pack_into("<H", word, 0x0A, flags | 0x0100)   # fEncrypted ([MS-DOC] 2.5.2, FibBase)
    struct.pack_into("<I", word, 0x0E, 52)               # lKey: the size of the encryption header
    table_name = "1Table" if flags & 0x0200 else "0Table"
    with olefile.OleFileIO(bytes(data)) as ole:
        table = bytearray(ole.openstream(table_name).read())
    # An RC4 encryption header ([MS-OFFCRYPTO] 2.3.6.1: version 1.1, salt, encrypted verifier
    # and its hash) over the start of the table stream: what Word writes before the table.
    r = random.Random(97)
    table[0:52] = struct.pack("<HH", 1, 1) + bytes(r.randrange(256) for _ in range(48))
    with open(path, "wb") as f:
        f.write(data)
    with olefile.OleFileIO(path, write_mode=True) as ole:
        ole.write_stream("WordDocument", bytes(word))
        ole.write_stream(table_name, bytes(table))


def encrypted(plain, password, path):
    with open(path, "wb") as out:
        OOXMLFile(io.BytesIO(plain)).encrypt(password, out)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    long_sheet(os.path.join(out, "office-long-sheet.xlsx"))
    plain = small_workbook()
    encrypted(plain, "VelvetSweatshop", os.path.join(out, "office-velvet.xlsx"))
    encrypted(plain, "secret", os.path.join(out, "office-encrypted.xlsx"))
    fuzzed_xls(os.path.join(out, "office-fuzzed.xls"))
    if os.path.exists(os.path.join(out, "office-report.doc")):
        encrypted_doc(os.path.join(out, "office-report.doc"), os.path.join(out, "office-encrypted.doc"))
