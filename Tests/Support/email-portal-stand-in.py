#!/usr/bin/python3
"""A stand-in xdg-desktop-portal for share tests: owns org.freedesktop.portal.Desktop and serves
org.freedesktop.portal.Email (version 4) at /org/freedesktop/portal/desktop, as the real portal
does. Each ComposeEmail call is recorded: RECORD gets one JSON line (subject, addresses, the
other option names, the number of descriptors), and each attachment descriptor's bytes, read
from the descriptor received, go to RECORD.attachment-N (N from 0 across calls). Then the call
is answered with its request handle and the Request's Response signal is sent on that handle:
   email-portal-stand-in.py RECORD [ok|cancel|error]
ok answers 0, cancel 1 (the user cancelled), error replies with a D-Bus error instead. Writes
RECORD.ready once the name is owned; exits after 120 s."""
import json
import os
import sys

from gi.repository import Gio, GLib

RECORD = sys.argv[1]
MODE = sys.argv[2] if len(sys.argv) > 2 else "ok"
INTERFACE = """
<node><interface name="org.freedesktop.portal.Email">
  <method name="ComposeEmail">
    <arg type="s" name="parent_window" direction="in"/>
    <arg type="a{sv}" name="options" direction="in"/>
    <arg type="o" name="handle" direction="out"/>
  </method>
  <property name="version" type="u" access="read"/>
</interface></node>"""
attachments = [0]


def read_all(fd):
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def call(connection, sender, path, interface, method, parameters, invocation):
    parent, options = parameters.unpack()
    if MODE == "error":
        invocation.return_dbus_error("org.freedesktop.portal.Error.Failed", "no mail program is set up")
        return
    fds = invocation.get_message().get_unix_fd_list()
    handles = options.get("attachment_fds", [])
    saved = []
    for index in handles:
        fd = fds.get(index)
        name = "%s.attachment-%d" % (RECORD, attachments[0])
        attachments[0] += 1
        with open(name, "wb") as out:
            out.write(read_all(fd))
        os.close(fd)
        saved.append(name)
    entry = {"parent": parent, "subject": options.get("subject"), "addresses": options.get("addresses"),
             "address": options.get("address"), "options": sorted(options.keys()), "attachments": saved,
             "descriptors": fds.get_length() if fds is not None else 0}
    with open(RECORD, "a") as record:
        record.write(json.dumps(entry) + "\n")
    token = options.get("handle_token", "t")
    handle = "/org/freedesktop/portal/desktop/request/%s/%s" % (sender[1:].replace(".", "_"), token)
    invocation.return_value(GLib.Variant("(o)", (handle,)))
    code = 1 if MODE == "cancel" else 0
    connection.emit_signal(sender, handle, "org.freedesktop.portal.Request", "Response",
                           GLib.Variant("(ua{sv})", (code, {})))


def get_property(connection, sender, path, interface, name):
    return GLib.Variant("u", 4)


def acquired(connection, name):
    with open(RECORD + ".ready", "w") as ready:
        ready.write(name)


bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
node = Gio.DBusNodeInfo.new_for_xml(INTERFACE)
bus.register_object("/org/freedesktop/portal/desktop", node.interfaces[0], call, get_property, None)
Gio.bus_own_name_on_connection(bus, "org.freedesktop.portal.Desktop", Gio.BusNameOwnerFlags.NONE, acquired, None)
loop = GLib.MainLoop()
GLib.timeout_add_seconds(120, loop.quit)
loop.run()
