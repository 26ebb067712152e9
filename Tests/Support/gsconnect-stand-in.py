#!/usr/bin/python3
"""A stand-in GSConnect service for share tests: owns org.gnome.Shell.Extensions.GSConnect and
serves what GSConnect exports — org.freedesktop.DBus.ObjectManager at
/org/gnome/Shell/Extensions/GSConnect (each device's org.gnome.Shell.Extensions.GSConnect.Device
properties: Id, Name, Connected, Paired, Type) and org.gtk.Actions at each device's path
/org/gnome/Shell/Extensions/GSConnect/Device/ID, whose Activate("shareFile", [<(uri, open)>], {})
is recorded as "ID<TAB>ACTION<TAB>URI<TAB>OPEN" in RECORD. Devices come from DEVICES (a JSON
list of {"id", "name", "connected", "paired"}), re-read at every call.
   gsconnect-stand-in.py DEVICES RECORD
Writes RECORD.ready once the name is owned; exits after 120 s."""
import json
import sys

from gi.repository import Gio, GLib

DEVICES, RECORD = sys.argv[1], sys.argv[2]
ROOT = "/org/gnome/Shell/Extensions/GSConnect"
XML = """
<node>
<interface name="org.freedesktop.DBus.ObjectManager">
  <method name="GetManagedObjects"><arg type="a{oa{sa{sv}}}" direction="out"/></method>
</interface>
<interface name="org.gtk.Actions">
  <method name="Activate">
    <arg type="s" direction="in"/><arg type="av" direction="in"/><arg type="a{sv}" direction="in"/>
  </method>
</interface>
</node>"""


def devices():
    with open(DEVICES) as source:
        return json.load(source)


def call(connection, sender, path, interface, method, parameters, invocation):
    if method == "GetManagedObjects":
        objects = {}
        for d in devices():
            objects["%s/Device/%s" % (ROOT, d["id"])] = {"org.gnome.Shell.Extensions.GSConnect.Device": {
                "Id": GLib.Variant("s", d["id"]), "Name": GLib.Variant("s", d["name"]),
                "Connected": GLib.Variant("b", d["connected"]), "Paired": GLib.Variant("b", d["paired"]),
                "Type": GLib.Variant("s", "phone")}}
        invocation.return_value(GLib.Variant("(a{oa{sa{sv}}})", (objects,)))
        return
    action, values, _platform = parameters.unpack()
    device = path.split("/")[-1]
    with open(RECORD, "a") as out:
        for value in values:
            uri, opened = value if isinstance(value, tuple) else (value, None)
            out.write("%s\t%s\t%s\t%s\n" % (device, action, uri, opened))
    invocation.return_value(None)


def acquired(connection, name):
    with open(RECORD + ".ready", "w") as ready:
        ready.write(name)


bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
node = Gio.DBusNodeInfo.new_for_xml(XML)
bus.register_object(ROOT, node.interfaces[0], call, None, None)
for d in devices():
    bus.register_object("%s/Device/%s" % (ROOT, d["id"]), node.interfaces[1], call, None, None)
Gio.bus_own_name_on_connection(bus, "org.gnome.Shell.Extensions.GSConnect", Gio.BusNameOwnerFlags.NONE, acquired, None)
loop = GLib.MainLoop()
GLib.timeout_add_seconds(120, loop.quit)
loop.run()
