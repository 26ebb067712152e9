#!/usr/bin/env python3
"""One highlight saved into the 1000-page bench PDF (issue 36's bar: the file grows by at most
16 KB and the save takes at most 1.5x the time of copying the file).

Drives a render worker (`quire __render-worker`) over its wire protocol as the window and
`quire form` do: a `saveChanges` request (kind 14) with one highlight on page 500, the worker's
incremental update back, then the update put in place as DocumentUpdateWriter does (a temporary
file beside the target: the original's bytes, the update, fsync, rename). Timed from the request
to the rename, against copying the file the same way (read, write, fsync, rename). A fresh worker
per run, started and handshaken before the clock starts (a viewer's worker is already running).

    bench/markup-bench.py QUIRE [RUNS]

A benchmark, not a test: it prints figures and never fails on a number."""
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

quire = os.path.abspath(sys.argv[1])
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
source = os.path.join(root, "Samples/generated/thousand-pages.pdf")
work = tempfile.mkdtemp(prefix="quire-markup-bench.")


def i64(value):
    return struct.pack("<q", value)


def f64(value):
    return struct.pack("<d", value)


def data(raw):
    return i64(len(raw)) + raw


def read_frame(stream):
    header = stream.read(4)
    if len(header) < 4:
        raise SystemExit("markup-bench: the worker ended")
    (length,) = struct.unpack("<I", header)
    return stream.read(length)


def request(path):
    document = data(path.encode()) + i64(0) + i64(os.path.getsize(path)) + i64(0) + i64(0) + i64(0) + i64(-1) + i64(0) + i64(0)
    highlight = data(b"highlight") + i64(499) + i64(1) + f64(72) + f64(100) + f64(200) + f64(14) + f64(1) + f64(0.9) + f64(0)
    highlight += i64(0) + i64(0) + f64(1) + f64(12)  # no text, no strokes, line width 1, font size 12
    # No turns, not flattened, no removals, no moves, no signature, no crop.
    payload = i64(14) + document + i64(0) + i64(1) + highlight + i64(0) + i64(0) + i64(0) + i64(0) + i64(0) + i64(0)
    return struct.pack("<I", len(payload)) + payload


def put_in_place(target, original_size, appended):
    fd, temporary = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".quire-tmp-")
    with os.fdopen(fd, "wb") as out, open(target, "rb") as original:
        remaining = original_size
        while remaining:
            chunk = original.read(min(1 << 20, remaining))
            out.write(chunk)
            remaining -= len(chunk)
        out.write(appended)
        out.flush()
        os.fsync(out.fileno())
    os.rename(temporary, target)


def copy(target):
    fd, temporary = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".quire-tmp-")
    with os.fdopen(fd, "wb") as out, open(target, "rb") as original:
        shutil.copyfileobj(original, out, 1 << 20)
        out.flush()
        os.fsync(out.fileno())
    os.rename(temporary, target)


saves, copies, growth = [], [], []
try:
    for _ in range(runs):
        target = os.path.join(work, "bench.pdf")
        shutil.copyfile(source, target)
        size = os.path.getsize(target)
        worker = subprocess.Popen([quire, "__render-worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        read_frame(worker.stdout)  # handshake
        start = time.perf_counter()
        worker.stdin.write(request(target))
        worker.stdin.flush()
        reply = read_frame(worker.stdout)
        (tag,) = struct.unpack_from("<q", reply, 0)
        if tag != 20:
            raise SystemExit("markup-bench: the worker answered %d, not a saved update" % tag)
        kind, original_size, length = struct.unpack_from("<qqq", reply, 8)
        if kind != 1 or original_size != size:
            raise SystemExit("markup-bench: not an incremental update of the file")
        put_in_place(target, original_size, reply[32:32 + length])
        saves.append(time.perf_counter() - start)
        worker.stdin.close()
        worker.wait()
        growth.append(os.path.getsize(target) - size)
        start = time.perf_counter()
        copy(target)
        copies.append(time.perf_counter() - start)
finally:
    shutil.rmtree(work, ignore_errors=True)

save, copied = statistics.median(saves), statistics.median(copies)
print("thousand-pages.pdf (%d bytes), one highlight on page 500, %d runs (median, min-max):" % (size, runs))
print("  save through the worker  %.1f ms (%.1f-%.1f), file grew %d bytes (bound: 16384)"
      % (save * 1000, min(saves) * 1000, max(saves) * 1000, max(growth)))
print("  copy of the file         %.1f ms (%.1f-%.1f)" % (copied * 1000, min(copies) * 1000, max(copies) * 1000))
print("  ratio save / copy: %.2f (bound: at most 1.5)" % (save / copied))
