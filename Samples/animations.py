#!/usr/bin/env python3
"""Animated images (animations/) written by Pillow. Usage: animations.py OUTDIR.

  animated.gif   3 frames (red, green, blue) of 100 ms, loops forever (NETSCAPE2.0 loop 0)
  animated.png   an APNG of 4 frames of 50 ms, played twice (num_plays 2)
  partial.png    an APNG whose later frames cover part of the canvas (Pillow writes each frame as
                 the box that changed, at its offset): red 60x40, then a green 10x10 square at
                 (10,10), then a blue one at (40,20) with the green kept; 100 ms each, loops
  disposal.png   an APNG of red 60x40, then a half-transparent green square drawn over it at
                 (10,10) (blend over) and disposed of as "previous", then a blue square at (40,20):
                 the third frame has no green left
  animated.webp  5 frames of 200 ms, loops forever
  truncated.gif  animated.gif cut in its second frame
  moving.gif     640x480, 48 frames of 40 ms (a bar crossing, the frame number in bits), loops
                 forever: what the window's playback is measured with (bench/animation-bench.sh)
  blank-first.gif  a blank (white) first frame, then red and green: thumbnails show the red
  many-frames.gif  hostile: a 1000x1000 canvas and 10,000 full-size frames, the first red all
                 over, the others of almost no data (240 KB): too many frames to play (10
                 gigapixels), its first frame is shown
"""
import os, struct, sys
from PIL import Image

out = os.path.join(sys.argv[1], "animations")
os.makedirs(out, exist_ok=True)
def frames(count, size=(60, 40)):
    colours = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255)]
    return [Image.new("RGB", size, colours[i % len(colours)]) for i in range(count)]

gif = frames(3)
gif[0].save(os.path.join(out, "animated.gif"), save_all=True, append_images=gif[1:], duration=100, loop=0)
png = frames(4)
png[0].save(os.path.join(out, "animated.png"), save_all=True, append_images=png[1:], duration=50, loop=2)
base = Image.new("RGBA", (60, 40), (255, 0, 0, 255))
second = base.copy(); second.paste((0, 255, 0, 255), (10, 10, 20, 20))
third = second.copy(); third.paste((0, 0, 255, 255), (40, 20, 50, 30))
base.save(os.path.join(out, "partial.png"), save_all=True, append_images=[second, third], duration=100, loop=0)
# disposal.png: the second frame, a half-transparent green square, is drawn over the red (blend
# over) and then restored away (dispose previous); the third draws a blue square elsewhere.
half = base.copy(); half.paste((0, 255, 0, 128), (10, 10, 20, 20))
blue = base.copy(); blue.paste((0, 0, 255, 255), (40, 20, 50, 30))
base.save(os.path.join(out, "disposal.png"), save_all=True, append_images=[half, blue], duration=100, loop=0,
          disposal=[0, 2, 0], blend=[0, 1, 0])
webp = frames(5)
webp[0].save(os.path.join(out, "animated.webp"), save_all=True, append_images=webp[1:], duration=200, loop=0, lossless=True)
data = open(os.path.join(out, "animated.gif"), "rb").read()
second = data.index(b"\x2c", data.index(b"\x2c") + 10)   # the second image descriptor
open(os.path.join(out, "truncated.gif"), "wb").write(data[:second + 12])

# A bar crossing a 640x480 frame, 48 frames of 40 ms (25 frames a second), every frame unlike
# the one before (the bar moves 13 px; the frame's number is drawn as bits along the top).
moving = []
for i in range(48):
    frame = Image.new("RGB", (640, 480), (30, 30, 30))
    pixels = frame.load()
    for x in range(i * 13, i * 13 + 24):
        for y in range(60, 480):
            pixels[x % 640, y] = (255, 40, 40)
    for bit in range(6):
        colour = (255, 255, 255) if i >> bit & 1 else (0, 0, 0)
        for x in range(bit * 40, bit * 40 + 36):
            for y in range(0, 40):
                pixels[x, y] = colour
    moving.append(frame)
moving[0].save(os.path.join(out, "moving.gif"), save_all=True, append_images=moving[1:], duration=40, loop=0, optimize=False)

# Many full-size frames: the first one red all over (LZW-coded here), each of the others a
# clear code, one pixel and the end code: cheap to write and to scan, ruinous to decode frame
# after frame.
def lzw(indices, minimum=2):
    """GIF's LZW of `indices` (code size from minimum + 1, a clear code first), as sub-blocks."""
    clear, end = 1 << minimum, (1 << minimum) + 1
    table, size, nxt = {}, minimum + 1, end + 1
    bits, count, out = 0, 0, bytearray()
    def emit(code):
        nonlocal bits, count
        bits |= code << count
        count += size
        while count >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            count -= 8
    emit(clear)
    run = None  # the code of the run so far
    for index in indices:
        if run is None:
            run = index
            continue
        key = (run, index)
        if key in table:
            run = table[key]
            continue
        emit(run)
        if nxt < 4096:
            table[key] = nxt
            nxt += 1
            if nxt > (1 << size) and size < 12:
                size += 1
        else:
            emit(clear)
            table, size, nxt = {}, minimum + 1, end + 1
        run = index
    emit(run)
    emit(end)
    if count:
        out.append(bits & 0xFF)
    blocks = bytearray([minimum])
    for start in range(0, len(out), 255):
        chunk = out[start:start + 255]
        blocks += bytes([len(chunk)]) + chunk
    return bytes(blocks + b"\x00")

width, height, count = 1000, 1000, 10_000
data = bytearray(b"GIF89a" + struct.pack("<HH", width, height) + bytes([0x80, 0, 0]) + bytes([255, 0, 0, 0, 0, 255]))
data += b"\x21\xFF\x0BNETSCAPE2.0\x03\x01\x00\x00\x00"
for i in range(count):
    data += b"\x21\xF9\x04\x00" + struct.pack("<H", 4) + b"\x00\x00"
    data += b"\x2C" + struct.pack("<HHHH", 0, 0, width, height) + b"\x00"
    data += lzw([0] * (width * height)) if i == 0 else b"\x02\x02\x44\x01\x00"
data += b"\x3B"
open(os.path.join(out, "many-frames.gif"), "wb").write(data)

# A fade in from nothing: the first frame blank (white all over), then red, then green (100 ms
# each): a thumbnail shows the red frame, the window plays all three.
fade = [Image.new("RGB", (60, 40), colour) for colour in [(255, 255, 255), (255, 0, 0), (0, 255, 0)]]
fade[0].save(os.path.join(out, "blank-first.gif"), save_all=True, append_images=fade[1:], duration=100, loop=0)
