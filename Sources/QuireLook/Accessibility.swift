import CGtk

/// Accessible names and descriptions (what AT-SPI clients — screen readers, tests — read).
@MainActor
enum Accessibility {
    /// Sets the accessible label of `widget` (GTK_ACCESSIBLE_PROPERTY_LABEL).
    static func setLabel(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        set(widget, GTK_ACCESSIBLE_PROPERTY_LABEL, text)
    }

    /// Sets the accessible description of `widget` (GTK_ACCESSIBLE_PROPERTY_DESCRIPTION).
    static func setDescription(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        set(widget, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text)
    }

    private static func set(_ widget: UnsafeMutablePointer<GtkWidget>, _ property: GtkAccessibleProperty, _ text: String) {
        var value = GValue()
        g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING
        g_value_set_string(&value, text)
        var properties = [property]
        gtk_accessible_update_property_value(OpaquePointer(widget), 1, &properties, &value)
        g_value_unset(&value)
    }

    /// Names the button inside a GtkDropDown, which is what takes the keyboard focus (GTK 4.8
    /// leaves it named "GtkToggleButton"); the drop-down itself is named by its mnemonic label.
    static func nameDropDownButton(_ dropDown: UnsafeMutablePointer<GtkWidget>, _ name: String) {
        for widget in WidgetTree.children(of: dropDown) where WidgetTree.isA(widget, gtk_toggle_button_get_type()) {
            setLabel(widget, name)
        }
    }

    /// A button with an icon, a tooltip and an accessible name.
    static func iconButton(_ icon: String, _ name: String) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_from_icon_name(icon)!
        gtk_widget_set_tooltip_text(button, name)
        setLabel(button, name)
        return button
    }

    /// A button with a text label (its accessible name is the label).
    static func textButton(_ label: String) -> UnsafeMutablePointer<GtkWidget> {
        gtk_button_new_with_label(label)!
    }
}
