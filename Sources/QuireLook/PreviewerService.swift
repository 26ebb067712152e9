#if canImport(Glibc)
import Glibc
#endif
import CGtk
import Quire
import QuireGIO
import QuireViewer
import Synchronization

/// `quire look --service`: the file manager's previewer on the session bus, as GNOME Sushi is.
/// Owns `org.gnome.NautilusPreviewer` at `/org/gnome/NautilusPreviewer` and implements
/// `org.gnome.NautilusPreviewer2`: ShowFile (Nautilus 43's three arguments, and the newer form
/// with an activation token), Close, the Visible and ParentHandle properties and the
/// SelectionEvent signal (Left/Right/Up/Down as a GtkDirectionType). One window, reused by every
/// ShowFile; the process quits once no window has been shown for `idleTimeout` seconds.
@MainActor
final class PreviewerService {
    nonisolated static let busName = "org.gnome.NautilusPreviewer"
    nonisolated static let objectPath = "/org/gnome/NautilusPreviewer"
    nonisolated static let interfaceName = "org.gnome.NautilusPreviewer2"

    /// The interface as Sushi publishes it (Nautilus 43 calls ShowFile with `(ssb)`). The
    /// four-argument form `(ssbs)` — the activation token last — is accepted too: the bus filter
    /// below turns it into this form before GDBus checks the signature.
    static let introspection = """
        <node>
          <interface name="org.gnome.NautilusPreviewer2">
            <method name="ShowFile">
              <arg type="s" direction="in" name="Uri"/>
              <arg type="s" direction="in" name="WindowHandle"/>
              <arg type="b" direction="in" name="CloseIfShown"/>
            </method>
            <method name="Close"/>
            <signal name="SelectionEvent">
              <arg type="u" name="direction"/>
            </signal>
            <property name="Visible" type="b" access="read"/>
            <property name="ParentHandle" type="s" access="read"/>
          </interface>
        </node>
        """

    /// The service of this process (GDBus callbacks find it here).
    static var current: PreviewerService?

    /// Activation tokens of four-argument calls, by the call's serial (set on GDBus's thread).
    nonisolated static let tokens = Mutex<[UInt32: String]>([:])

    let configuration: ViewerModel.Configuration
    let idleTimeout: UInt32
    private let connection: OpaquePointer  // GDBusConnection
    private var window: LookWindow?
    private var shownURI: String?
    private var parentHandle = ""
    private var idleSource: guint = 0
    private(set) var finished = false
    private(set) var failure: String?

    init(connection: OpaquePointer, configuration: ViewerModel.Configuration, idleTimeout: UInt32) {
        self.connection = connection
        self.configuration = configuration
        self.idleTimeout = idleTimeout
    }

    var isVisible: Bool { window != nil }

    // MARK: Registration

    /// Registers the object and asks for the name; `finished` is set if the name is lost.
    func start() throws(PreviewerServiceError) {
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(Self.introspection, &error) else {
            throw PreviewerServiceError(take(&error))
        }
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, sender, _, _, method, parameters, invocation, _ in
            guard let method, let parameters, let invocation else { return }
            let name = String(cString: method)
            let senderName = sender.map { String(cString: $0) }
            MainActor.assumeIsolated {
                PreviewerService.current?.call(name, parameters, invocation, sender: senderName)
            }
        }
        vtable.get_property = { _, _, _, _, property, _, _ in
            guard let property else { return nil }
            let name = String(cString: property)
            // Crosses assumeIsolated as an address (GVariant pointers are not Sendable).
            let address = MainActor.assumeIsolated { PreviewerService.current?.property(name).map { UInt(bitPattern: $0) } }
            return address.flatMap { OpaquePointer(bitPattern: $0) }
        }
        let registration = g_dbus_connection_register_object(
            connection, Self.objectPath, node.pointee.interfaces[0], &vtable, nil, nil, &error)
        if registration == 0 { throw PreviewerServiceError(take(&error)) }
        g_dbus_connection_add_filter(connection, Self.filter, nil, nil)

        let acquired: GBusNameAcquiredCallback = { _, _, _ in
            MainActor.assumeIsolated { PreviewerService.current?.scheduleIdleQuit() }
        }
        let lost: GBusNameLostCallback = { _, _, _ in
            MainActor.assumeIsolated {
                guard let service = PreviewerService.current else { return }
                service.failure = "another previewer owns \(PreviewerService.busName) on the session bus"
                service.finished = true
            }
        }
        g_bus_own_name_on_connection(connection, Self.busName, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
                                     acquired, lost, nil, nil)
    }

    /// Runs on GDBus's worker thread, not the main actor's.
    nonisolated private static let filter: GDBusMessageFilterFunction = { _, message, incoming, _ in
        guard incoming != 0, let message else { return message }
        return PreviewerService.acceptFourArguments(message)
    }

    /// Newer file managers send ShowFile with a fourth argument, the activation token: the call
    /// is rewritten to the three-argument form the interface declares, the token kept aside.
    /// Runs on GDBus's worker thread.
    nonisolated private static func acceptFourArguments(_ message: OpaquePointer) -> OpaquePointer? {
        guard g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_METHOD_CALL,
              let path = g_dbus_message_get_path(message), String(cString: path) == objectPath,
              let member = g_dbus_message_get_member(message), String(cString: member) == "ShowFile",
              let signature = g_dbus_message_get_signature(message), String(cString: signature) == "ssbs",
              let body = g_dbus_message_get_body(message) else {
            return message
        }
        var error: UnsafeMutablePointer<GError>?
        guard let copy = g_dbus_message_copy(message, &error) else {
            g_clear_error(&error)
            return message
        }
        var children: [OpaquePointer?] = (0..<3).map { g_variant_get_child_value(body, $0) }
        let token = g_variant_get_child_value(body, 3)!
        let tokenText = String(cString: g_variant_get_string(token, nil))
        g_variant_unref(token)
        g_dbus_message_set_body(copy, g_variant_new_tuple(&children, 3))
        for child in children { g_variant_unref(child) }
        let serial = g_dbus_message_get_serial(message)
        tokens.withLock { $0[serial] = tokenText }
        g_object_unref(UnsafeMutableRawPointer(message))
        return copy
    }

    // MARK: Methods and properties

    private func call(_ method: String, _ parameters: OpaquePointer, _ invocation: OpaquePointer, sender: String?) {
        switch method {
        case "ShowFile":
            let uri = stringChild(parameters, 0)
            let handle = stringChild(parameters, 1)
            let child = g_variant_get_child_value(parameters, 2)!
            let closeIfShown = g_variant_get_boolean(child) != 0
            g_variant_unref(child)
            let message = g_dbus_method_invocation_get_message(invocation)
            let serial = message.map { g_dbus_message_get_serial($0) } ?? 0
            let token = Self.tokens.withLock { $0.removeValue(forKey: serial) }
            do throws(PreviewerServiceError) {
                try showFile(uri, windowHandle: handle, closeIfShown: closeIfShown, activationToken: token)
                g_dbus_method_invocation_return_value(invocation, nil)
            } catch {
                g_dbus_method_invocation_return_dbus_error(invocation, error.name, error.message)
            }
        case "Close":
            closeWindow()
            g_dbus_method_invocation_return_value(invocation, nil)
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod",
                                                       "no method \(method)")
        }
    }

    private func property(_ name: String) -> OpaquePointer? {
        switch name {
        case "Visible": g_variant_new_boolean(isVisible ? 1 : 0)
        case "ParentHandle": g_variant_new_string(parentHandle)
        default: nil
        }
    }

    private func stringChild(_ tuple: OpaquePointer, _ index: Int) -> String {
        let child = g_variant_get_child_value(tuple, gsize(index))!
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }

    // MARK: The window

    func showFile(_ uri: String, windowHandle: String, closeIfShown: Bool, activationToken: String?) throws(PreviewerServiceError) {
        if closeIfShown, isVisible, uri == shownURI {
            closeWindow()
            return
        }
        let path = try Self.localFile(uri)
        let model = ViewerModel(paths: [path], configuration: configuration, unacceptedLimit: 2) { LookWindow.wake() }
        cancelIdleQuit()
        // Print (libcups: the printers, the document's printability) and Open With (GIO's
        // default-application scan) are looked up once the file is on screen, as `quire look`
        // does: the window answers the Space key first.
        if let window {
            window.show(model: model, deferActions: true)
        } else {
            let created = LookWindow(model: model, deferActions: true)
            created.onClose = { [unowned self] in self.windowClosed() }
            created.keyFilter = { [unowned self] key in self.selectionKey(key) }
            window = created
        }
        if let activationToken, !activationToken.isEmpty, let window {
            gtk_window_set_startup_id(cast(window.window), activationToken)
        }
        window?.present()
        shownURI = uri
        parentHandle = windowHandle
        propertiesChanged()
    }

    /// The local path of a `file://` URI that names a regular file, or the reason it cannot be shown.
    static func localFile(_ uri: String) throws(PreviewerServiceError) -> DocumentPath {
        guard let bytes = FileURI.localPath(ofURI: uri) else {
            throw PreviewerServiceError(name: "org.gnome.NautilusPreviewer.Error.NotLocal",
                                        message: "\(uri) is not a local file (only file:// URIs can be previewed)")
        }
        let path = DocumentPath(bytes: bytes)
        var info = stat()
        if path.withCString({ stat($0, &info) }) != 0 {
            throw PreviewerServiceError(name: "org.gnome.NautilusPreviewer.Error.NotFound",
                                        message: "\(path): \(String(cString: strerror(errno)))")
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw PreviewerServiceError(name: "org.gnome.NautilusPreviewer.Error.NotAFile",
                                        message: "\(path) is a folder, not a file")
        }
        return path
    }

    func closeWindow() {
        window?.close()
    }

    private func windowClosed() {
        window = nil
        shownURI = nil
        propertiesChanged()
        scheduleIdleQuit()
    }

    /// Left/Right/Up/Down go to the file manager, which moves its selection and calls ShowFile.
    private func selectionKey(_ key: Int32) -> Bool {
        let direction: GtkDirectionType
        switch key {
        case GDK_KEY_Left: direction = GTK_DIR_LEFT
        case GDK_KEY_Right: direction = GTK_DIR_RIGHT
        case GDK_KEY_Up: direction = GTK_DIR_UP
        case GDK_KEY_Down: direction = GTK_DIR_DOWN
        default: return false
        }
        var children: [OpaquePointer?] = [g_variant_new_uint32(direction.rawValue)]
        var error: UnsafeMutablePointer<GError>?
        g_dbus_connection_emit_signal(connection, nil, Self.objectPath, Self.interfaceName, "SelectionEvent",
                                      g_variant_new_tuple(&children, 1), &error)
        g_clear_error(&error)
        return true
    }

    /// org.freedesktop.DBus.Properties.PropertiesChanged for Visible and ParentHandle.
    private func propertiesChanged() {
        let type = g_variant_type_new("a{sv}")
        let builder = g_variant_builder_new(type)
        g_variant_type_free(type)
        g_variant_builder_add_value(builder, g_variant_new_dict_entry(
            g_variant_new_string("Visible"), g_variant_new_variant(g_variant_new_boolean(isVisible ? 1 : 0))))
        g_variant_builder_add_value(builder, g_variant_new_dict_entry(
            g_variant_new_string("ParentHandle"), g_variant_new_variant(g_variant_new_string(parentHandle))))
        let invalidated = g_variant_new_strv(nil, 0)
        var children: [OpaquePointer?] = [g_variant_new_string(Self.interfaceName), g_variant_builder_end(builder), invalidated]
        g_variant_builder_unref(builder)
        var error: UnsafeMutablePointer<GError>?
        g_dbus_connection_emit_signal(connection, nil, Self.objectPath, "org.freedesktop.DBus.Properties",
                                      "PropertiesChanged", g_variant_new_tuple(&children, 3), &error)
        g_clear_error(&error)
    }

    // MARK: Quitting when idle

    func scheduleIdleQuit() {
        cancelIdleQuit()
        guard !isVisible else { return }
        idleSource = g_timeout_add_seconds(idleTimeout, { _ in
            MainActor.assumeIsolated {
                guard let service = PreviewerService.current else { return }
                service.idleSource = 0
                if !service.isVisible { service.finished = true }
            }
            return 0
        }, nil)
    }

    private func cancelIdleQuit() {
        if idleSource != 0 { g_source_remove(idleSource) }
        idleSource = 0
    }
}

/// A D-Bus error for a ShowFile the service cannot honour: its error name and the user's message.
struct PreviewerServiceError: Error, Sendable {
    let name: String
    let message: String

    init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    init(_ error: String) {
        name = "org.freedesktop.DBus.Error.Failed"
        message = error
    }
}

/// Takes a GError's message and frees it.
func take(_ error: inout UnsafeMutablePointer<GError>?) -> String {
    defer { g_clear_error(&error) }
    return error.map { String(cString: $0.pointee.message) } ?? "unknown error"
}
