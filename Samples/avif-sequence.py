#!/usr/bin/env python3
"""An animated AVIF (an AVIF image sequence, brand 'avis') made from still AVIF images. Usage:
avif-sequence.py OUT.avif DELAY_MS [--repeat N] STILL.avif...

Debian 12 has no avifenc; heif-enc -A encodes each frame as a still AVIF (AV1 through libaom).
This script takes each still's AV1 data (the primary item's extents, named by its 'iloc') and
its 'av1C' property, and writes them as the samples of one 'pict' track in a 'moov' (every
sample a keyframe, each DELAY_MS long): the layout libavif reads as a sequence. It writes no
image item (no 'meta'): a sequence-only file, as some encoders make them.

With --repeat N, the stills' samples are listed N times over, every repeat a chunk of its own
pointing at the same bytes: a hostile file of very many frames in a few hundred kilobytes.
"""
import struct, sys

def boxes(data, start=0, end=None):
    end = len(data) if end is None else end
    while start + 8 <= end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[start + 8:start + 16])[0]; header = 16
        elif size == 0:
            size = end - start
        yield kind.decode("latin-1"), start + header, start + size
        start += size

def child(data, start, end, kind, skip=0):
    for name, s, e in boxes(data, start + skip, end):
        if name == kind:
            return s, e
    raise SystemExit("no %s box" % kind)

def still(path):
    data = open(path, "rb").read()
    meta = child(data, 0, len(data), "meta")
    ms, me = meta[0] + 4, meta[1]          # meta is a full box
    ps, pe = child(data, ms, me, "pitm")
    version = data[ps]
    primary = struct.unpack(">H" if version == 0 else ">I", data[ps + 4:ps + 6 if version == 0 else ps + 8])[0]
    ls, le = child(data, ms, me, "iloc")
    version = data[ls]
    sizes = data[ls + 4], data[ls + 5]
    offset_size, length_size, base_size = sizes[0] >> 4, sizes[0] & 15, sizes[1] >> 4
    index_size = sizes[1] & 15 if version in (1, 2) else 0
    pos = ls + 6
    def read(n):
        nonlocal pos
        value = int.from_bytes(data[pos:pos + n], "big") if n else 0
        pos += n
        return value
    count = read(2 if version < 2 else 4)
    payload = b""
    for _ in range(count):
        item = read(2 if version < 2 else 4)
        if version in (1, 2): read(2)       # construction method
        read(2)                             # data reference index
        base = read(base_size)
        extents = read(2)
        for _ in range(extents):
            if index_size: read(index_size)
            offset, length = read(offset_size), read(length_size)
            if item == primary:
                payload += data[base + offset:base + offset + length]
    iprp = child(data, ms, me, "iprp")
    ipco = child(data, iprp[0], iprp[1], "ipco")
    av1c = next(data[s - 8:e] for name, s, e in boxes(data, ipco[0], ipco[1]) if name == "av1C")
    ispe = next(data[s:e] for name, s, e in boxes(data, ipco[0], ipco[1]) if name == "ispe")
    width, height = struct.unpack(">II", ispe[4:12])
    return payload, av1c, width, height

def box(kind, *parts):
    body = b"".join(parts)
    return struct.pack(">I4s", 8 + len(body), kind.encode()) + body

def full(kind, version, flags, *parts):
    return box(kind, struct.pack(">I", version << 24 | flags), *parts)

out, delay, paths = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
repeat = 1
if paths[:1] == ["--repeat"]:
    repeat, paths = int(paths[1]), paths[2:]
frames = [still(p) for p in paths]
width, height, av1c = frames[0][2], frames[0][3], frames[0][1]
samples = [f[0] for f in frames]
count = len(samples) * repeat
duration = delay * count
matrix = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
# No "avif" or "mif1" brand: those promise an image item (a meta box), which this file has not.
ftyp = box("ftyp", b"avis", struct.pack(">I", 0), b"avis", b"msf1", b"iso8", b"miaf", b"MA1B")
entry = box("av01", bytes(6), struct.pack(">H", 1), bytes(16), struct.pack(">HH", width, height),
            struct.pack(">II", 0x480000, 0x480000), bytes(4), struct.pack(">H", 1), bytes(32),
            struct.pack(">Hh", 0x18, -1), av1c)
def moov(chunk_offset):
    stbl = box("stbl",
               full("stsd", 0, 0, struct.pack(">I", 1), entry),
               full("stts", 0, 0, struct.pack(">III", 1, count, delay)),
               full("stsc", 0, 0, struct.pack(">IIII", 1, 1, len(samples), 1)),
               full("stsz", 0, 0, struct.pack(">II", 0, count), b"".join(struct.pack(">I", len(s)) for s in samples) * repeat),
               full("stco", 0, 0, struct.pack(">I", repeat), struct.pack(">I", chunk_offset) * repeat))
    minf = box("minf", full("vmhd", 0, 1, bytes(8)),
               box("dinf", full("dref", 0, 0, struct.pack(">I", 1), full("url ", 0, 1))), stbl)
    mdia = box("mdia", full("mdhd", 0, 0, struct.pack(">IIII", 0, 0, 1000, duration), struct.pack(">HH", 0x55C4, 0)),
               full("hdlr", 0, 0, struct.pack(">I", 0), b"pict", bytes(12), b"\0"), minf)
    tkhd = full("tkhd", 0, 3, struct.pack(">IIIII", 0, 0, 1, 0, duration), bytes(8), struct.pack(">hhhH", 0, 0, 0, 0),
                matrix, struct.pack(">II", width << 16, height << 16))
    mvhd = full("mvhd", 0, 0, struct.pack(">IIII", 0, 0, 1000, duration), struct.pack(">IH", 0x10000, 0x100), bytes(10),
                matrix, bytes(24), struct.pack(">I", 2))
    return box("moov", mvhd, box("trak", tkhd, mdia))
size = len(moov(0))
mdat_payload = b"".join(samples)
chunk_offset = len(ftyp) + size + 8
with open(out, "wb") as f:
    f.write(ftyp + moov(chunk_offset) + box("mdat", mdat_payload))
