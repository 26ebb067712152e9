#if canImport(Glibc)
import Glibc
#endif
import CAdwaita
import CGtk

/// libadwaita: GNOME's widgets and style (status pages for the messages in place of a preview,
/// toasts for "Copied"), started once per process after GTK has its display.
@MainActor
enum Adwaita {
    private(set) static var isStarted = false
    /// ``skipGTKTheme()`` set `GTK_THEME` for GTK's settings to read once.
    private static var themeSkipped = false

    /// Call before `gtk_init` and before any other thread starts (it sets an environment
    /// variable). GTK loads its own theme when its settings are made — which ``start()`` does —
    /// and libadwaita then replaces that theme with an empty one and its own style sheet: GTK's
    /// "Default" theme is parsed for nothing (81 M instructions of a window's first frame,
    /// ~20 % of it; callgrind, docs/notes/books.md). GTK's built-in "Empty" theme is named for
    /// the settings to start with instead; ``start()`` takes the name away before libadwaita
    /// looks, so it sets its own theme as always and the window looks the same, pixel for
    /// pixel. A user's own `GTK_THEME` is left alone (libadwaita then keeps to it).
    static func skipGTKTheme() {
        guard getenv("GTK_THEME") == nil else { return }
        setenv("GTK_THEME", "Empty", 1)
        themeSkipped = true
    }

    /// `adw_init()`: libadwaita's types, its style sheet and its style manager, which follows
    /// the desktop's light or dark preference (GNOME's `color-scheme`) by itself.
    static func start() {
        guard !isStarted else { return }
        isStarted = true
        if themeSkipped {
            // GTK's settings, made while the name is there; libadwaita (and programs started
            // from the window) no longer see it.
            _ = gtk_settings_get_default()
            unsetenv("GTK_THEME")
            themeSkipped = false
        }
        adw_init()
    }

    /// Calls `action` when libadwaita's style manager turns dark or light.
    static func onDarkChange(_ action: @escaping @MainActor () -> Void) {
        guard isStarted, let manager = adw_style_manager_get_default() else { return }
        Signal.connectIgnoringArgument(UnsafeMutableRawPointer(manager), "notify::dark") { action() }
    }
}
