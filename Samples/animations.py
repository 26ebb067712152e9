#!/usr/bin/env python3
"""Animated images (animations/) written by Pillow. Usage: animations.py OUTDIR.

  animated.gif   3 frames (red, green, blue) of 100 ms, loops forever (NETSCAPE2.0 loop 0)
  animated.png   an APNG of 4 frames of 50 ms, played twice (num_plays 2)
  animated.webp  5 frames of 200 ms, loops forever
  truncated.gif  animated.gif cut in its second frame
"""
import os, sys
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
webp = frames(5)
webp[0].save(os.path.join(out, "animated.webp"), save_all=True, append_images=webp[1:], duration=200, loop=0, lossless=True)
data = open(os.path.join(out, "animated.gif"), "rb").read()
second = data.index(b"\x2c", data.index(b"\x2c") + 10)   # the second image descriptor
open(os.path.join(out, "truncated.gif"), "wb").write(data[:second + 12])
