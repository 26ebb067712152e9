#!/usr/bin/python3
"""Print an application's accessibility tree through AT-SPI, one line per object:
   DEPTH<TAB>ROLE<TAB>NAME<TAB>DESCRIPTION<TAB>STATES (comma-separated)<TAB>EXTENTS<TAB>VALUE
   EXTENTS is "x,y,width,height" in its window's coordinates (empty without a Component
   interface); VALUE a spin button's or slider's current value (empty without a Value one).
   atspi-tree.py APP-NAME               (e.g. quire-look); exits 1 when no such application
   atspi-tree.py APP-NAME --press NAME  does the first action (click) of the first push button
                                        named NAME that has an action (else such a toggle
                                        button, else a menu item); exits 2 when there is none.
   atspi-tree.py APP-NAME --select NAME selects the first list item named NAME through its
                                        list's Selection interface; exits 2 when there is none.
Uses the session bus in DBUS_SESSION_BUS_ADDRESS (the test bed's).

Every object's questions (its children, role, interfaces, name, description, states, extents,
value) are sent at once, a bounded number in flight, and an object's children are asked as soon
as they are known. Asking one property at a time, a round trip each, took 4-6 s for a table of
1,500 objects on an idle machine and more than the tests' 20 s under load. (GTK's own
org.a11y.atspi.Cache lists only the objects asked for so far, with the states they had then.)"""
import collections
import sys

import gi
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, Gio, GLib

STATES = {Atspi.StateType.SENSITIVE: "sensitive", Atspi.StateType.SHOWING: "showing",
          Atspi.StateType.VISIBLE: "visible", Atspi.StateType.SELECTABLE: "selectable",
          Atspi.StateType.SELECTED: "selected", Atspi.StateType.FOCUSED: "focused",
          Atspi.StateType.ENABLED: "enabled", Atspi.StateType.FOCUSABLE: "focusable"}
ROOT = "/org/a11y/atspi/accessible/root"
ACCESSIBLE = "org.a11y.atspi.Accessible"
PROPERTIES = "org.freedesktop.DBus.Properties"
IN_FLIGHT = 64  # well below a bus's limit of unanswered calls per connection
TIMEOUT_MS = 20000


def clean(text):
    return (text or "").replace("\t", " ").replace("\n", " ")


def accessibility_bus():
    session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    reply = session.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None,
                              GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE, TIMEOUT_MS, None)
    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    return Gio.DBusConnection.new_for_address_sync(reply.unpack()[0], flags, None, None)


def call(bus, name, path, interface, method, arguments=None, reply_type=None):
    reply = bus.call_sync(name, path, interface, method, arguments,
                          GLib.VariantType(reply_type) if reply_type else None,
                          Gio.DBusCallFlags.NONE, TIMEOUT_MS, None)
    return reply.unpack()


def application(bus, wanted):
    """The bus name of the application called `wanted`, or None."""
    (children,) = call(bus, "org.a11y.atspi.Registry", ROOT, ACCESSIBLE, "GetChildren", reply_type="(a(so))")
    for name, path in children:
        try:
            (found,) = call(bus, name, path, PROPERTIES, "Get", GLib.Variant("(ss)", (ACCESSIBLE, "Name")), "(v)")
        except GLib.Error:  # an application that left while asked
            continue
        if found == wanted:
            return name
    return None


class Node:
    def __init__(self, path):
        self.path = path
        self.parent = None
        self.index = -1
        self.role = ""
        self.interfaces = []
        self.name = ""
        self.description = ""
        self.states = []
        self.children = []
        self.extents = ""
        self.value = ""


class Reader:
    """The tree of one application, read with every question in flight at once."""

    def __init__(self, bus, app):
        self.bus = bus
        self.app = app
        self.loop = GLib.MainLoop()
        self.queue = collections.deque()
        self.pending = 0

    def ask(self, node, interface, method, arguments, answer):
        self.queue.append((node, interface, method, arguments, answer))

    def send(self):
        while self.pending < IN_FLIGHT and self.queue:
            node, interface, method, arguments, answer = self.queue.popleft()
            self.pending += 1
            self.bus.call(self.app, node.path, interface, method, arguments, None, Gio.DBusCallFlags.NONE,
                          TIMEOUT_MS, None, self.answered, (node, answer))
        if self.pending == 0:
            self.loop.quit()

    def answered(self, connection, result, target):
        node, answer = target
        try:
            answer(node, connection.call_finish(result).unpack())
        except GLib.Error:  # an object that went away meanwhile: left without what was asked
            pass
        self.pending -= 1
        self.send()

    def run(self):
        self.send()
        if self.pending:
            self.loop.run()

    def read(self, node, details):
        """Asks for what the listing prints of `node` (with `details`: also its states, extents
        and value) and for its children, and for theirs once they are known."""
        self.ask(node, ACCESSIBLE, "GetRole", None, self.role)
        self.ask(node, ACCESSIBLE, "GetInterfaces", None, lambda node, reply: self.interfaces(node, reply, details))
        self.ask(node, PROPERTIES, "GetAll", GLib.Variant("(s)", (ACCESSIBLE,)),
                 lambda node, reply: self.properties(node, reply, details))
        if details:
            self.ask(node, ACCESSIBLE, "GetState", None, self.state)

    def properties(self, node, reply, details):
        node.name = reply[0].get("Name", "")
        node.description = reply[0].get("Description", "")
        # Each child by its index, as a screen reader walks: GTK's GetChildren leaves out a
        # stack's pages.
        node.children = [None] * max(0, reply[0].get("ChildCount", 0))
        for index in range(len(node.children)):
            self.ask(node, ACCESSIBLE, "GetChildAtIndex", GLib.Variant("(i)", (index,)),
                     lambda node, reply, index=index: self.child(node, index, reply, details))

    def child(self, node, index, reply, details):
        _, path = reply[0]
        if path == "/org/a11y/atspi/null":
            return
        child = Node(path)
        child.parent = node
        child.index = index
        node.children[index] = child
        self.read(child, details)

    @staticmethod
    def role(node, reply):
        node.role = Atspi.role_get_name(Atspi.Role(reply[0]))

    def interfaces(self, node, reply, details):
        node.interfaces = reply[0]
        if details and "org.a11y.atspi.Component" in node.interfaces:
            self.ask(node, "org.a11y.atspi.Component", "GetExtents",
                     GLib.Variant("(u)", (int(Atspi.CoordType.WINDOW),)), self.extents)
        if details and "org.a11y.atspi.Value" in node.interfaces:
            self.ask(node, PROPERTIES, "Get", GLib.Variant("(ss)", ("org.a11y.atspi.Value", "CurrentValue")),
                     self.value)

    @staticmethod
    def state(node, reply):
        words = reply[0]
        bits = words[0] | (words[1] << 32 if len(words) > 1 else 0)
        node.states = [label for state, label in STATES.items() if bits & (1 << int(state))]

    @staticmethod
    def extents(node, reply):
        node.extents = "%d,%d,%d,%d" % reply[0]

    @staticmethod
    def value(node, reply):
        node.value = repr(float(reply[0]))


def tree(bus, app, details=True):
    """The application's root, its descendants read."""
    root = Node(ROOT)
    reader = Reader(bus, app)
    reader.read(root, details)
    reader.run()
    return root


def preorder(node, depth=0):
    yield node, depth
    for child in node.children:
        if child is not None:  # (an index that answered with no object)
            yield from preorder(child, depth + 1)


def find(bus, app, root, role, name, needs_action=False):
    for node, _ in preorder(root):
        if node.role != role or node.name != name:
            continue
        if needs_action:
            if "org.a11y.atspi.Action" not in node.interfaces:
                continue
            (count,) = call(bus, app, node.path, PROPERTIES, "Get",
                            GLib.Variant("(ss)", ("org.a11y.atspi.Action", "NActions")), "(v)")
            if count <= 0:
                continue
        return node
    return None


def main():
    wanted = sys.argv[1]
    press = sys.argv[3] if len(sys.argv) == 4 and sys.argv[2] == "--press" else None
    select = sys.argv[3] if len(sys.argv) == 4 and sys.argv[2] == "--select" else None
    bus = accessibility_bus()
    app = application(bus, wanted)
    if app is None:
        print("no application named %s" % wanted, file=sys.stderr)
        return 1
    root = tree(bus, app, details=press is None and select is None)
    if select is not None:
        item = find(bus, app, root, "list item", select)
        if item is None:
            print("no list item named %s" % select, file=sys.stderr)
            return 2
        (done,) = call(bus, app, item.parent.path, "org.a11y.atspi.Selection", "SelectChild",
                       GLib.Variant("(i)", (item.index,)), "(b)")
        return 0 if done else 3
    if press is not None:
        button = None
        for role in ("push button", "toggle button", "menu item", "check menu item"):
            button = button or find(bus, app, root, role, press, True)
        if button is None:
            print("no push button named %s" % press, file=sys.stderr)
            return 2
        call(bus, app, button.path, "org.a11y.atspi.Action", "DoAction", GLib.Variant("(i)", (0,)), "(b)")
        return 0
    print("\n".join("%d\t%s\t%s\t%s\t%s\t%s\t%s" % (depth, node.role, clean(node.name), clean(node.description),
                                                   ",".join(node.states), node.extents, node.value)
                    for node, depth in preorder(root)))
    return 0


sys.exit(main())
