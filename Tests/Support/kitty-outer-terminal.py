#!/usr/bin/env python3
"""A stand-in for a terminal that speaks kitty graphics, outside tmux: attaches a tmux client
(`tmux -L SOCKET attach`) on a pseudo-terminal of 100x40 cells (10x20 px each), answers the kitty
graphics query (`ESC _ G i=31 …`) with OK as kitty does, and logs every byte tmux sends it to
LOG, for SECONDS seconds. What reaches it came through tmux's passthrough."""
import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time

socket, log, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "xterm-256color"
    os.execvp("tmux", ["tmux", "-L", socket, "attach"])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 1000, 800))
pending = b""
end = time.time() + seconds
with open(log, "wb") as out:
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if fd not in ready:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        out.write(data)
        out.flush()
        pending = (pending + data)[-4096:]
        if b"\x1b_Gi=31" in pending:
            os.write(fd, b"\x1b_Gi=31;OK\x1b\\")
            pending = pending.replace(b"\x1b_Gi=31", b"")
