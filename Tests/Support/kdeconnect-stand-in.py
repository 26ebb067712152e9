#!/usr/bin/python3
"""A stand-in KDE Connect daemon for share tests: owns org.kde.kdeconnect and serves the
interfaces the real daemon (kdeconnectd) exports — org.kde.kdeconnect.daemon at
/modules/kdeconnect (devices(onlyReachable, onlyPaired)), org.kde.kdeconnect.device at
/modules/kdeconnect/devices/ID (properties name, isReachable, isPaired) and
org.kde.kdeconnect.device.share at .../ID/share (shareUrl, shareUrls). The devices are read
from DEVICES (a JSON list of {"id", "name", "reachable", "paired"}) at every call, so a test
can make one go away by rewriting it. Each shared URL is recorded as "ID<TAB>URL" in RECORD.
   kdeconnect-stand-in.py DEVICES RECORD
Writes RECORD.ready once the name is owned; exits after 120 s."""
import json
import sys

from gi.repository import Gio, GLib

DEVICES, RECORD = sys.argv[1], sys.argv[2]
XML = """
<node>
<interface name="org.kde.kdeconnect.daemon">
  <method name="devices"><arg type="b" direction="in"/><arg type="b" direction="in"/><arg type="as" direction="out"/></method>
</interface>
<interface name="org.kde.kdeconnect.device">
  <property name="name" type="s" access="read"/>
  <property name="isReachable" type="b" access="read"/>
  <property name="isPaired" type="b" access="read"/>
</interface>
<interface name="org.kde.kdeconnect.device.share">
  <method name="shareUrl"><arg type="s" direction="in"/></method>
  <method name="shareUrls"><arg type="as" direction="in"/></method>
</interface>
</node>"""
registered = set()


def devices():
    with open(DEVICES) as source:
        return json.load(source)


def record(device, urls):
    with open(RECORD, "a") as out:
        for url in urls:
            out.write("%s\t%s\n" % (device, url))


def call(connection, sender, path, interface, method, parameters, invocation):
    if method == "devices":
        reachable, paired = parameters.unpack()
        ids = [d["id"] for d in devices() if (d["reachable"] or not reachable) and (d["paired"] or not paired)]
        invocation.return_value(GLib.Variant("(as)", (ids,)))
        return
    device = path.split("/")[-2]
    if not any(d["id"] == device and d["reachable"] for d in devices()):
        invocation.return_dbus_error("org.kde.kdeconnect.Error", "device %s is not reachable" % device)
        return
    urls = [parameters.unpack()[0]] if method == "shareUrl" else parameters.unpack()[0]
    record(device, urls)
    invocation.return_value(None)


def get_property(connection, sender, path, interface, name):
    device = path.split("/")[-1]
    for d in devices():
        if d["id"] == device:
            return {"name": GLib.Variant("s", d["name"]), "isReachable": GLib.Variant("b", d["reachable"]),
                    "isPaired": GLib.Variant("b", d["paired"])}[name]
    return None


def acquired(connection, name):
    with open(RECORD + ".ready", "w") as ready:
        ready.write(name)


bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
node = Gio.DBusNodeInfo.new_for_xml(XML)
bus.register_object("/modules/kdeconnect", node.interfaces[0], call, None, None)
for d in devices():
    bus.register_object("/modules/kdeconnect/devices/" + d["id"], node.interfaces[1], None, get_property, None)
    bus.register_object("/modules/kdeconnect/devices/" + d["id"] + "/share", node.interfaces[2], call, None, None)
Gio.bus_own_name_on_connection(bus, "org.kde.kdeconnect", Gio.BusNameOwnerFlags.NONE, acquired, None)
loop = GLib.MainLoop()
GLib.timeout_add_seconds(120, loop.quit)
loop.run()
