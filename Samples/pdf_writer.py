"""The one hand-written PDF writer the sample generators share (no PDF library): objects numbered
from 1 (object 1 is the catalog), a classic xref table with exact offsets, and a trailer.
Deterministic: the same objects always give the same bytes."""
import zlib


def write_pdf(path, objects, trailer=b""):
    """objects: bytes bodies of objects 1..n. `trailer`: extra trailer entries after /Root
    (e.g. b" /Info 2 0 R"). Writes the file and returns its bytes."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, trailer, xref)
    with open(path, "wb") as f:
        f.write(out)
    return bytes(out)


def stream(dictionary, data, compress=False):
    """A stream object's body; `compress` deflates `data` and adds /Filter /FlateDecode."""
    if compress:
        data = zlib.compress(data, 6)
        dictionary += b" /Filter /FlateDecode"
    return b"<< " + dictionary + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"
