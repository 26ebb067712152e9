#!/usr/bin/env python3
"""Font samples for the font engine, made from Debian's DejaVu fonts (fonts-dejavu-core):
a collection of two faces (.ttc), a WOFF 1.0 file (zlib-compressed tables), a truncated font
and one whose `name` table points past the end of the file. Written into OUT/fonts/."""
import os, shutil, struct, sys, zlib

DEJAVU = "/usr/share/fonts/truetype/dejavu"

def tables(data):
    """(sfnt version, [(tag, checksum, bytes)]) of a single sfnt font."""
    version, count = struct.unpack(">IH", data[:6])
    out = []
    for i in range(count):
        tag, checksum, offset, length = struct.unpack(">4sIII", data[12 + 16 * i: 28 + 16 * i])
        out.append((tag, checksum, data[offset:offset + length]))
    return version, out

def pad(b):
    return b + b"\0" * (-len(b) % 4)

def sfnt_directory(version, entries, base):
    """Offset table + directory for `entries` whose data start at file offset `base`."""
    count = len(entries)
    power = 1
    while power * 2 <= count: power *= 2
    head = struct.pack(">IHHHH", version, count, power * 16, max(0, power.bit_length() - 1), count * 16 - power * 16)
    directory, body, offset = b"", b"", base
    for tag, checksum, data in entries:
        directory += struct.pack(">4sIII", tag, checksum, offset, len(data))
        body += pad(data)
        offset += len(pad(data))
    return head + directory, body

def collection(paths):
    fonts = [tables(open(p, "rb").read()) for p in paths]
    header_size = 12 + 4 * len(fonts)
    directories = [12 + 16 * len(entries) for _, entries in fonts]
    offset = header_size + sum(directories)
    heads, bodies, starts = [], [], []
    start = header_size
    for (version, entries), size in zip(fonts, directories):
        starts.append(start)
        start += size
        head, body = sfnt_directory(version, entries, offset)
        offset += len(body)
        heads.append(head)
        bodies.append(body)
    out = b"ttcf" + struct.pack(">IH", 0x00010000, 0)[:4] + struct.pack(">I", len(fonts))
    out = b"ttcf" + struct.pack(">II", 0x00010000, len(fonts)) + b"".join(struct.pack(">I", s) for s in starts)
    return out + b"".join(heads) + b"".join(bodies)

def woff(path):
    version, entries = tables(open(path, "rb").read())
    count = len(entries)
    offset = 44 + 20 * count
    directory, body = b"", b""
    sfnt_size = 12 + 16 * count + sum(len(pad(d)) for _, _, d in entries)
    for tag, checksum, data in entries:
        packed = zlib.compress(data, 9)
        if len(packed) >= len(data): packed = data
        directory += struct.pack(">4sIIII", tag, offset, len(packed), len(data), checksum)
        body += pad(packed)
        offset += len(pad(packed))
    header = struct.pack(">4sIIHHIHHIIIII", b"wOFF", version, 44 + len(directory) + len(body), count, 0,
                         sfnt_size, 1, 0, 0, 0, 0, 0, 0)
    return header + directory + body

def broken_name_table(path):
    data = bytearray(open(path, "rb").read())
    _, count = struct.unpack(">IH", data[:6])
    for i in range(count):
        at = 12 + 16 * i
        if data[at:at + 4] == b"name":
            struct.pack_into(">I", data, at + 8, len(data) + 4096)   # offset past the end
    return bytes(data)

def main(out):
    folder = os.path.join(out, "fonts")
    os.makedirs(folder, exist_ok=True)
    sans, bold = os.path.join(DEJAVU, "DejaVuSans.ttf"), os.path.join(DEJAVU, "DejaVuSans-Bold.ttf")
    shutil.copyfile(sans, os.path.join(folder, "DejaVuSans.ttf"))
    open(os.path.join(folder, "collection.ttc"), "wb").write(collection([sans, bold]))
    open(os.path.join(folder, "DejaVuSans.woff"), "wb").write(woff(sans))
    open(os.path.join(folder, "truncated.ttf"), "wb").write(open(sans, "rb").read()[:3000])
    open(os.path.join(folder, "broken-name-table.ttf"), "wb").write(broken_name_table(bold))

if __name__ == "__main__":
    main(sys.argv[1])
