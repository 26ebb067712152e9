#if canImport(Glibc)
import Glibc
#endif
import CGtk
import Quire
import QuireGIO
import QuireViewer

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
    /// four-argument form `(ssbs)` — the activation token last — is accepted too
    /// (``DBusConnection/acceptExtraArguments(path:interface:method:declared:)``).
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

    /// The service of this process (D-Bus callbacks find it here).
    static var current: PreviewerService?

    let configuration: ViewerModel.Configuration
    let idleTimeout: UInt32
    private let connection: DBusConnection
    private var window: LookWindow?
    private var shownURI: String?
    private var parentHandle = ""
    private var idleSource: guint = 0
    private(set) var finished = false
    private(set) var failure: String?

    init(connection: DBusConnection, configuration: ViewerModel.Configuration, idleTimeout: UInt32) {
        self.connection = connection
        self.configuration = configuration
        self.idleTimeout = idleTimeout
    }

    var isVisible: Bool { window != nil }

    // MARK: Registration

    /// Registers the object and asks for the name; `finished` is set if the name is lost.
    /// Calls, property reads and the name's callbacks come on this (the main) thread, which
    /// runs the default main context.
    func start() throws(PreviewerServiceError) {
        do {
            try connection.register(
                introspection: Self.introspection, objects: [(Self.objectPath, Self.interfaceName)],
                properties: { @Sendable _, name in
                    MainActor.assumeIsolated { PreviewerService.current?.property(name) }
                },
                handler: { @Sendable _, method, arguments, invocation in
                    MainActor.assumeIsolated { PreviewerService.current?.call(method, arguments, invocation) }
                })
        } catch {
            throw PreviewerServiceError(error.description)
        }
        connection.acceptExtraArguments(path: Self.objectPath, interface: Self.interfaceName, method: "ShowFile", declared: "ssb")
        connection.ownName(Self.busName, acquired: {
            MainActor.assumeIsolated { PreviewerService.current?.scheduleIdleQuit() }
        }, lost: {
            MainActor.assumeIsolated {
                guard let service = PreviewerService.current else { return }
                service.failure = "another previewer owns \(PreviewerService.busName) on the session bus"
                service.finished = true
            }
        })
    }

    // MARK: Methods and properties

    /// ShowFile's arguments: `(ssb)`, or `(ssbs)` from newer file managers, the activation
    /// token last.
    private func call(_ method: String, _ arguments: DBusArguments, _ invocation: DBusInvocation) {
        switch method {
        case "ShowFile":
            let token = arguments.values.count > 3 ? arguments.string(3) : nil
            do throws(PreviewerServiceError) {
                try showFile(arguments.string(0), windowHandle: arguments.string(1), closeIfShown: arguments.boolean(2),
                             activationToken: token)
                invocation.reply()
            } catch {
                invocation.fail(error.name, error.message)
            }
        case "Close":
            closeWindow()
            invocation.reply()
        default:
            invocation.fail("org.freedesktop.DBus.Error.UnknownMethod", "no method \(method)")
        }
    }

    private func property(_ name: String) -> DBusValue? {
        switch name {
        case "Visible": .boolean(isVisible)
        case "ParentHandle": .string(parentHandle)
        default: nil
        }
    }

    // MARK: The window

    /// The render thread and worker every file shown goes through (made at the first ShowFile).
    private var renderQueue: RenderQueue?

    func showFile(_ uri: String, windowHandle: String, closeIfShown: Bool, activationToken: String?) throws(PreviewerServiceError) {
        if closeIfShown, isVisible, uri == shownURI {
            closeWindow()
            return
        }
        let path = try Self.localFile(uri)
        // One render thread and worker for the service's life: file after file (Space, then the
        // arrows in the file manager) is opened by a warm worker, not a new process each time.
        let queue = renderQueue ?? RenderQueue(command: configuration.worker, timeout: configuration.renderTimeout,
                                               sandbox: configuration.sandbox, paths: [path], unacceptedLimit: 2) { LookWindow.wake() }
        renderQueue = queue
        let model = ViewerModel(paths: [path], configuration: configuration, sharing: queue)
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
        connection.emitSignal(path: Self.objectPath, interface: Self.interfaceName, name: "SelectionEvent",
                              [.uint32(direction.rawValue)])
        return true
    }

    /// org.freedesktop.DBus.Properties.PropertiesChanged for Visible and ParentHandle.
    private func propertiesChanged() {
        connection.emitPropertiesChanged(path: Self.objectPath, interface: Self.interfaceName,
                                         [("Visible", .boolean(isVisible)), ("ParentHandle", .string(parentHandle))])
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
