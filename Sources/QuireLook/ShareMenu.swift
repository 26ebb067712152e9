import CGtk
import Quire
import QuireShare
import QuireSystem

/// The header's Share menu: Email… (the desktop portal with the files attached as descriptors,
/// else xdg-email), Send to Device (the reachable paired devices of KDE Connect or GSConnect),
/// Copy, Copy Path and Open with. What it offers is looked up each time it opens: a device that
/// went away is not listed, one that goes between the menu and the click is said. Mail and
/// devices are asked on a thread of their own (the portal answers once the mail program runs);
/// the answer comes back to the status line.
@MainActor
final class ShareMenu {
    /// The GtkMenuButton (accessible name "Share").
    let button: UnsafeMutablePointer<GtkWidget>
    private let menu: OpaquePointer  // GMenu, rebuilt as the menu opens (the button's reference)
    private let actions: OpaquePointer  // GSimpleActionGroup, "share.*" (the window's reference)
    private var deviceActions: [String] = []
    private var devices: [ShareDevice] = []
    private var emailRoute: EmailRoute?
    /// A share in progress (one at a time).
    private var sending = false

    /// The files the menu shares now (the current file, or the index sheet's selection).
    var files: () -> [DocumentPath] = { [] }
    /// Says something in the window's status line.
    var status: (String) -> Void = { _ in }
    var copy: () -> Void = {}
    var copyPath: () -> Void = {}
    var openWith: () -> Void = {}
    /// The default application's name, nil when there is none (no Open With item).
    var openWithName: () -> String? = { nil }

    init(window: UnsafeMutablePointer<GtkWidget>) {
        button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(OpaquePointer(button), "send-to-symbolic")
        gtk_widget_set_tooltip_text(button, "Share")
        Accessibility.setLabel(button, "Share")
        menu = g_menu_new()!
        actions = OpaquePointer(g_simple_action_group_new()!)
        gtk_widget_insert_action_group(window, "share", actions)
        add("email") { [unowned self] in self.email() }
        add("copy") { [unowned self] in self.copy() }
        add("copy-path") { [unowned self] in self.copyPath() }
        add("open-with") { [unowned self] in self.openWith() }
        gtk_menu_button_set_menu_model(OpaquePointer(button), UnsafeMutablePointer<GMenuModel>(menu))
        // The button holds the menu and the window the actions from here on (both live as long
        // as this value, which the window keeps): our own references go.
        g_object_unref(UnsafeMutableRawPointer(menu))
        g_object_unref(UnsafeMutableRawPointer(actions))
        Signal.menuButtonOpening(button) { [unowned self] in self.rebuild() }
    }

    private func add(_ name: String, _ action: @escaping @MainActor () -> Void) {
        Signal.addAction(name, to: actions, action)
    }

    /// The mail route (looked up once per window: the portal or xdg-email do not come and go
    /// while a file is looked at), its reason in the button's tooltip when there is none.
    func lookUpEmail() -> EmailRoute {
        if let emailRoute { return emailRoute }
        let route = EmailRoute.find()
        emailRoute = route
        if case .unavailable(let reason) = route {
            let text = "Share (Email is not available: \(reason))"
            gtk_widget_set_tooltip_text(button, text)
            Accessibility.setDescription(button, "Email is not available: \(reason)")
        }
        return route
    }

    /// Rebuilds the menu's items for what can be done now.
    func rebuild() {
        g_menu_remove_all(menu)
        let route = lookUpEmail()
        let send = g_menu_new()!
        if route.isAvailable { g_menu_append(send, "Email…", "share.email") }
        for name in deviceActions { g_action_map_remove_action(actions, name) }
        deviceActions = []
        devices = DeviceDirectory().devices()
        if !devices.isEmpty {
            let submenu = g_menu_new()!
            for (index, device) in devices.enumerated() {
                let name = "device-\(index)"
                add(name) { [unowned self] in self.send(to: device) }
                deviceActions.append(name)
                g_menu_append(submenu, device.name, "share.\(name)")
            }
            g_menu_append_submenu(send, "Send to Device", UnsafeMutablePointer<GMenuModel>(submenu))
            g_object_unref(UnsafeMutableRawPointer(submenu))
        }
        g_menu_append_section(menu, nil, UnsafeMutablePointer<GMenuModel>(send))
        g_object_unref(UnsafeMutableRawPointer(send))
        let local = g_menu_new()!
        g_menu_append(local, "Copy", "share.copy")
        g_menu_append(local, "Copy Path", "share.copy-path")
        if let name = openWithName() { g_menu_append(local, "Open with \(name)", "share.open-with") }
        g_menu_append_section(menu, nil, UnsafeMutablePointer<GMenuModel>(local))
        g_object_unref(UnsafeMutableRawPointer(local))
    }

    /// The files checked and opened, or the reason said (nothing is sent then).
    private func openFiles() -> ShareFiles? {
        guard !sending else {
            status("Still sending the last share…")
            return nil
        }
        do throws(ShareError) {
            return try ShareFiles(files())
        } catch {
            status("Not sent: \(error.message)")
            return nil
        }
    }

    private func email() {
        guard let shared = openFiles() else { return }
        let route = lookUpEmail()
        sending = true
        status("Starting a mail…")
        let what = shared.files.count == 1 ? shared.files[0].name : "\(shared.files.count) files"
        JoinableThread.detach(stackSize: 1 << 20) {
            let outcome: Result<String, ShareError>
            do throws(ShareError) { outcome = .success(try EmailComposer.compose(shared, route: route)) } catch { outcome = .failure(error) }
            Signal.post { [weak self] in
                guard let self else { return }
                self.sending = false
                switch outcome {
                case .success: self.status("Mail started with \(what) attached")
                case .failure(let error) where error.kind == .cancelled: self.status("Not sent: the mail was cancelled")
                case .failure(let error): self.status("Not sent: \(error.message)")
                }
            }
        }
    }

    private func send(to device: ShareDevice) {
        guard let shared = openFiles() else { return }
        sending = true
        status("Sending to \(device.name)…")
        let what = shared.files.count == 1 ? shared.files[0].name : "\(shared.files.count) files"
        JoinableThread.detach(stackSize: 1 << 20) {
            let outcome: Result<Void, ShareError>
            do throws(ShareError) { try DeviceDirectory().send(shared, to: device); outcome = .success(()) } catch { outcome = .failure(error) }
            Signal.post { [weak self] in
                guard let self else { return }
                self.sending = false
                switch outcome {
                case .success: self.status("Sent \(what) to \(device.name)")
                case .failure(let error): self.status("Not sent: \(error.message)")
                }
            }
        }
    }
}
