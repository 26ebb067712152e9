#!/usr/bin/python3
"""A real GTK 4 drop target for drag tests: a window titled "Quire drop target" that accepts a
dragged file list (Gdk.FileList, which GTK reads from text/uri-list) and writes each dropped
file's URI, one per line, to RECORD; the window's size and place are fixed so a test knows where
to drop. Writes RECORD.ready once the window is shown; exits after 120 s.
   drop-target.py RECORD X Y"""
import sys

import gi
gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, GLib, Gtk

RECORD = sys.argv[1]


def dropped(target, value, x, y):
    with open(RECORD, "a") as record:
        for file in value.get_files():
            record.write(file.get_uri() + "\n")
    return True


def shown(window):
    with open(RECORD + ".ready", "w") as ready:
        ready.write("shown")


Gtk.init()
window = Gtk.Window(title="Quire drop target")
window.set_default_size(300, 300)
area = Gtk.Label(label="Drop here")
area.set_hexpand(True)
area.set_vexpand(True)
target = Gtk.DropTarget.new(Gdk.FileList, Gdk.DragAction.COPY)
target.connect("drop", dropped)
area.add_controller(target)
window.set_child(area)
window.connect("map", shown)
window.present()
loop = GLib.MainLoop()
window.connect("close-request", lambda *_: loop.quit())
GLib.timeout_add_seconds(120, loop.quit)
loop.run()
