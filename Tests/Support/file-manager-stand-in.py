#!/usr/bin/python3
"""A stand-in file manager on the session bus for window tests: owns
org.freedesktop.FileManager1 and writes each ShowItems call's URIs, one per line, to the file
named by its argument; exits after 60 s.
   file-manager-stand-in.py RECORD-FILE"""
import sys

from gi.repository import Gio, GLib

RECORD = sys.argv[1]
INTERFACE = """
<node><interface name="org.freedesktop.FileManager1">
  <method name="ShowItems"><arg type="as" direction="in"/><arg type="s" direction="in"/></method>
</interface></node>"""


def call(connection, sender, path, interface, method, parameters, invocation):
    uris, _startup = parameters.unpack()
    with open(RECORD, "a") as record:
        record.write("\n".join(uris) + "\n")
    invocation.return_value(None)


def acquired(connection, name):
    with open(RECORD + ".ready", "w") as ready:
        ready.write(name)


bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
node = Gio.DBusNodeInfo.new_for_xml(INTERFACE)
bus.register_object("/org/freedesktop/FileManager1", node.interfaces[0], call, None, None)
Gio.bus_own_name_on_connection(bus, "org.freedesktop.FileManager1", Gio.BusNameOwnerFlags.NONE, acquired, None)
loop = GLib.MainLoop()
GLib.timeout_add_seconds(60, loop.quit)
loop.run()
