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
Uses the session bus in DBUS_SESSION_BUS_ADDRESS (the test bed's)."""
import sys

import gi
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi

STATES = {Atspi.StateType.SENSITIVE: "sensitive", Atspi.StateType.SHOWING: "showing",
          Atspi.StateType.VISIBLE: "visible", Atspi.StateType.SELECTABLE: "selectable",
          Atspi.StateType.SELECTED: "selected", Atspi.StateType.FOCUSED: "focused",
          Atspi.StateType.ENABLED: "enabled", Atspi.StateType.FOCUSABLE: "focusable"}


def clean(text):
    return (text or "").replace("\t", " ").replace("\n", " ")


def extents(node):
    try:
        if "Component" not in node.get_interfaces():
            return ""
        box = Atspi.Component.get_extents(node, Atspi.CoordType.WINDOW)
        return "%d,%d,%d,%d" % (box.x, box.y, box.width, box.height)
    except Exception:
        return ""


def value(node):
    try:
        return repr(Atspi.Value.get_current_value(node)) if "Value" in node.get_interfaces() else ""
    except Exception:
        return ""


def walk(node, depth, out):
    try:
        states = node.get_state_set()
        names = [label for state, label in STATES.items() if states.contains(state)]
        out.append("%d\t%s\t%s\t%s\t%s\t%s\t%s" % (depth, node.get_role_name(), clean(node.get_name()),
                                                 clean(node.get_description()), ",".join(names),
                                                 extents(node), value(node)))
        for index in range(node.get_child_count()):
            child = node.get_child_at_index(index)
            if child is not None:
                walk(child, depth + 1, out)
    except Exception as error:  # an object that went away while walking
        out.append("%d\terror\t%s\t\t" % (depth, clean(str(error))))


def actionable(node):
    try:
        return "Action" in node.get_interfaces() and Atspi.Action.get_n_actions(node) > 0
    except Exception:
        return False


def find(node, role, name, needs_action=False):
    if node.get_role_name() == role and node.get_name() == name and (not needs_action or actionable(node)):
        return node
    for index in range(node.get_child_count()):
        child = node.get_child_at_index(index)
        found = find(child, role, name, needs_action) if child is not None else None
        if found is not None:
            return found
    return None


def main():
    wanted = sys.argv[1]
    press = sys.argv[3] if len(sys.argv) == 4 and sys.argv[2] == "--press" else None
    select = sys.argv[3] if len(sys.argv) == 4 and sys.argv[2] == "--select" else None
    desktop = Atspi.get_desktop(0)
    for index in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(index)
        if app is not None and app.get_name() == wanted:
            if select is not None:
                item = find(app, "list item", select)
                if item is None:
                    print("no list item named %s" % select, file=sys.stderr)
                    return 2
                return 0 if Atspi.Selection.select_child(item.get_parent(), item.get_index_in_parent()) else 3
            if press is not None:
                button = find(app, "push button", press, True)
                for role in ("toggle button", "menu item", "check menu item"):
                    if button is None:
                        button = find(app, role, press, True)
                if button is None:
                    print("no push button named %s" % press, file=sys.stderr)
                    return 2
                button.get_action_iface().do_action(0)
                return 0
            out = []
            walk(app, 0, out)
            print("\n".join(out))
            return 0
    print("no application named %s" % wanted, file=sys.stderr)
    return 1


sys.exit(main())
