import CGtk

/// A view's right-click menu (a JSON tree's rows, a table's cells): the items' actions under
/// `prefix` on the view, a popover without an arrow, and a secondary click that lets the owner
/// take what is under the pointer (``init(on:prefix:items:pressed:)``'s `pressed`) before it
/// opens the menu there (``popup(x:y:)``).
@MainActor
final class ContextMenu {
    struct Item {
        let label: String
        /// The action's name under the prefix.
        let name: String
        let action: @MainActor () -> Void
    }

    private let popover: UnsafeMutablePointer<GtkWidget>

    init(on view: UnsafeMutablePointer<GtkWidget>, prefix: String, items: [Item],
         pressed: @escaping @MainActor (_ x: Double, _ y: Double) -> Void) {
        let menu = g_menu_new()!
        for item in items { g_menu_append(menu, item.label, "\(prefix).\(item.name)") }
        popover = gtk_popover_menu_new_from_model(UnsafeMutablePointer<GMenuModel>(menu))!
        g_object_unref(UnsafeMutableRawPointer(menu))
        gtk_widget_set_parent(popover, view)
        gtk_popover_set_has_arrow(cast(popover), 0)
        gtk_widget_set_halign(popover, GTK_ALIGN_START)
        let actions = OpaquePointer(g_simple_action_group_new()!)
        for item in items { Signal.addAction(item.name, to: actions, item.action) }
        gtk_widget_insert_action_group(view, prefix, actions)
        g_object_unref(UnsafeMutableRawPointer(actions))
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click, 3)
        Signal.connectPressed(UnsafeMutableRawPointer(click)) { _, x, y in pressed(x, y) }
        gtk_widget_add_controller(view, click)
    }

    /// Whether the menu is open (it reads its own keys).
    var isOpen: Bool { gtk_widget_get_visible(popover) != 0 }

    /// Opens the menu at (`x`, `y`) in the view.
    func popup(x: Double, y: Double) {
        var point = GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1)
        gtk_popover_set_pointing_to(cast(popover), &point)
        gtk_popover_popup(cast(popover))
    }
}
