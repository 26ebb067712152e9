import CGtk

/// Light or dark, as the desktop and the GTK theme say.
///
/// GTK 4.8 without libadwaita does not read GNOME's "Dark style" preference by itself: when
/// `org.gnome.desktop.interface color-scheme` is `prefer-dark` (and that schema is installed),
/// the window asks GTK for the theme's dark variant, and follows the preference when it changes.
/// Whether the window *is* dark is read from the theme's own text colour, so a dark theme chosen
/// any other way (`GTK_THEME=Adwaita:dark`, a dark theme name) counts too.
@MainActor
enum ColorScheme {
    private static var desktopSettings: UnsafeMutablePointer<GSettings>?  // kept for its signal
    private static var observers: [@MainActor () -> Void] = []
    private static var watchingGtk = false

    /// Starts following the desktop's preference (once per process).
    static func followDesktop() {
        // libadwaita's style manager follows the preference itself (and does not support GTK's
        // dark-theme setting beside it).
        guard !Adwaita.isStarted else { return }
        guard desktopSettings == nil,
              let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, "org.gnome.desktop.interface", 1) else { return }
        defer { g_settings_schema_unref(schema) }
        guard g_settings_schema_has_key(schema, "color-scheme") != 0,
              let settings = g_settings_new("org.gnome.desktop.interface") else { return }
        desktopSettings = settings
        applyDesktopPreference()
        Signal.connectIgnoringArgument(UnsafeMutableRawPointer(settings), "changed::color-scheme") {
            applyDesktopPreference()
        }
    }

    private static func applyDesktopPreference() {
        guard let settings = desktopSettings, let gtk = gtk_settings_get_default() else { return }
        let value = g_settings_get_string(settings, "color-scheme")
        defer { g_free(value) }
        let dark = value.map { String(cString: $0) == "prefer-dark" } ?? false
        let object = UnsafeMutableRawPointer(gtk).assumingMemoryBound(to: GObject.self)
        var boolean = GValue()
        g_value_init(&boolean, GType(5 << 2))  // G_TYPE_BOOLEAN
        defer { g_value_unset(&boolean) }
        // GTK 4.8 loads the whole theme again on any set of this property, even to the value it
        // has (~80 M instructions, a fifth of the window's start): set it only when it changes.
        g_object_get_property(object, "gtk-application-prefer-dark-theme", &boolean)
        guard (g_value_get_boolean(&boolean) != 0) != dark else { return }
        g_value_set_boolean(&boolean, dark ? 1 : 0)
        g_object_set_property(object, "gtk-application-prefer-dark-theme", &boolean)
    }

    /// Whether `widget` is drawn dark: its text colour is light.
    static func isDark(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        var color = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(widget), &color)
        return 0.2126 * Double(color.red) + 0.7152 * Double(color.green) + 0.0722 * Double(color.blue) > 0.5
    }

    /// Calls `action` after the theme or the dark preference changed (when the new style applies).
    static func onChange(_ action: @escaping @MainActor () -> Void) {
        observers.append(action)
        if Adwaita.isStarted {
            if observers.count == 1 { Adwaita.onDarkChange { Signal.idle { for observer in observers { observer() } } } }
            return
        }
        guard !watchingGtk, let gtk = gtk_settings_get_default() else { return }
        watchingGtk = true
        for property in ["notify::gtk-theme-name", "notify::gtk-application-prefer-dark-theme"] {
            Signal.connectIgnoringArgument(UnsafeMutableRawPointer(gtk), property) {
                Signal.idle { for observer in observers { observer() } }
            }
        }
    }
}
