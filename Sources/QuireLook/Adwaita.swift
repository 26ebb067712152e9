import CAdwaita
import CGtk

/// libadwaita: GNOME's widgets and style (status pages for the messages in place of a preview,
/// toasts for "Copied"), started once per process after GTK has its display.
@MainActor
enum Adwaita {
    private(set) static var isStarted = false

    /// `adw_init()`: libadwaita's types, its style sheet and its style manager, which follows
    /// the desktop's light or dark preference (GNOME's `color-scheme`) by itself.
    static func start() {
        guard !isStarted else { return }
        isStarted = true
        adw_init()
    }

    /// Calls `action` when libadwaita's style manager turns dark or light.
    static func onDarkChange(_ action: @escaping @MainActor () -> Void) {
        guard isStarted, let manager = adw_style_manager_get_default() else { return }
        Signal.connectIgnoringArgument(UnsafeMutableRawPointer(manager), "notify::dark") { action() }
    }
}
