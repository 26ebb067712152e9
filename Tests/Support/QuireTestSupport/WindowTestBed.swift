import Foundation

/// A private graphical session for window tests (Tests/Support/x11-testbed.sh: a session bus
/// and Xvfb), with the tools that drive and read a window there: xdotool for keys and window
/// names, imagemagick's `import` for screenshots, AT-SPI (Tests/Support/atspi-tree.py) for the
/// accessibility tree. Stopped when released.
public final class WindowTestBed: @unchecked Sendable {
    public let directory: TemporaryDirectory
    /// DISPLAY, DBUS_SESSION_BUS_ADDRESS, GDK_BACKEND, GSK_RENDERER.
    public let variables: [String: String]

    public static var script: String { Samples.repositoryRoot.appendingPathComponent("Tests/Support/x11-testbed.sh").path }

    /// - Parameter screen: the Xvfb screen's size (default ``screen``, 1280×900).
    public init(screen: (width: Int, height: Int)? = nil) throws {
        directory = TemporaryDirectory("quire-x11")
        var environment = ProcessInfo.processInfo.environment
        if let screen { environment["QUIRE_XVFB_SCREEN"] = "\(screen.width)x\(screen.height)" }
        let result = ProcessRunner.run([Self.script, "start", directory.path], environment: environment, timeout: 60)
        guard result.status == 0 else {
            throw BackgroundProcessError(message: "x11-testbed start failed: \(result.standardError)")
        }
        let text = try String(contentsOfFile: directory.file("env"), encoding: .utf8)
        var variables: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            variables[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        self.variables = variables
    }

    deinit { _ = ProcessRunner.run([Self.script, "stop", directory.path], timeout: 30) }

    /// The environment for a process in this session, plus `extra` (WAYLAND_DISPLAY removed).
    public func environment(_ base: [String: String] = ProcessInfo.processInfo.environment,
                            _ extra: [String: String] = [:]) -> [String: String] {
        var env = base
        env["WAYLAND_DISPLAY"] = nil
        for (key, value) in variables { env[key] = value }
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// Runs a tool (xdotool, import…) in this session.
    @discardableResult
    public func run(_ arguments: [String], timeout: Double = 30) -> ProcessRunner.Result {
        ProcessRunner.run(arguments, environment: environment(), timeout: timeout)
    }

    /// Waits for a visible window whose name matches `name` (a regular expression); its id.
    public func waitForWindow(named name: String, timeout: Double = 30) -> String? {
        let result = run(["/usr/bin/xdotool", "search", "--sync", "--onlyvisible", "--name", name], timeout: timeout)
        return result.status == 0 ? result.standardOutputText.split(separator: "\n").first.map(String.init) : nil
    }

    /// Whether a visible window matches `name` now.
    public func hasWindow(named name: String) -> Bool {
        run(["/usr/bin/xdotool", "search", "--onlyvisible", "--name", name]).status == 0
    }

    /// Sends key strokes (xdotool names: "Next", "ctrl+plus", "Escape") to the focused window.
    public func key(_ keys: String...) {
        run(["/usr/bin/xdotool", "key", "--delay", "60"] + keys)
    }

    /// Clicks (`count` times in a row: 2 is a double click) at `x`, `y` in window `window`'s
    /// coordinates (xdotool), e.g. the middle of an accessible object's extents.
    public func click(window: String, x: Int, y: Int, count: Int = 1) {
        run(["/usr/bin/xdotool", "mousemove", "--window", window, String(x), String(y),
             "click", "--repeat", String(count), "--delay", "80", "1"])
    }

    /// Types text into the focused window.
    public func type(_ text: String) {
        run(["/usr/bin/xdotool", "type", "--delay", "60", text])
    }

    /// A screenshot (imagemagick `import`): the PNG's path. With `window` (an X window id, as
    /// ``waitForWindow(named:)`` returns), cropped to that window's rectangle on the screen
    /// (`xdotool getwindowgeometry`); otherwise the whole screen.
    /// With `QUIRE_TEST_SCREENSHOTS=DIR` in the test's environment a copy is kept as DIR/NAME.png.
    public func screenshot(_ name: String, window: String? = nil) throws -> String {
        let path = directory.file(name + ".png")
        var arguments = ["/usr/bin/import", "-window", "root"]
        if let window {
            let geometry = try self.geometry(of: window)
            arguments += ["-crop", "\(geometry.width)x\(geometry.height)+\(geometry.x)+\(geometry.y)", "+repage"]
        }
        let result = run(arguments + [path])
        guard result.status == 0 else { throw BackgroundProcessError(message: "import failed: \(result.standardError)") }
        // QUIRE_TEST_SCREENSHOTS=DIR keeps a copy of each, to look at after the run.
        if let keep = ProcessInfo.processInfo.environment["QUIRE_TEST_SCREENSHOTS"], !keep.isEmpty {
            try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            let copy = keep + "/" + name + ".png"
            try? FileManager.default.removeItem(atPath: copy)
            try? FileManager.default.copyItem(atPath: path, toPath: copy)
        }
        return path
    }

    /// Where window `id` is on the screen, clipped to the screen.
    public func geometry(of id: String) throws -> (x: Int, y: Int, width: Int, height: Int) {
        let result = run(["/usr/bin/xdotool", "getwindowgeometry", "--shell", id])
        var values: [String: Int] = [:]
        for line in result.standardOutputText.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        guard result.status == 0, let x = values["X"], let y = values["Y"], let width = values["WIDTH"],
              let height = values["HEIGHT"], width > 0, height > 0 else {
            throw BackgroundProcessError(message: "no geometry for window \(id): \(result.standardError)")
        }
        let left = max(0, x), top = max(0, y)
        return (left, top, min(width - (left - x), Self.screen.width - left), min(height - (top - y), Self.screen.height - top))
    }

    /// The Xvfb screen x11-testbed.sh starts.
    public static let screen = (width: 1280, height: 900)

    /// Desktop entries of document viewers, in the order a test prefers them.
    public static let documentViewers = ["org.gnome.Evince.desktop", "org.gnome.Papers.desktop", "okularApplication_pdf.desktop",
                                         "atril.desktop", "xreader.desktop"]

    /// Writes `configHome/mimeapps.list` making the first installed document viewer the
    /// default for PDF (imagemagick, a test dependency, registers `display` for PDF too; a
    /// user's desktop would have a document viewer). The chosen desktop entry, or nil when
    /// none is installed (no file is written then).
    @discardableResult
    public static func preferDocumentViewer(configHome: String) throws -> String? {
        let directories = (ProcessInfo.processInfo.environment["XDG_DATA_DIRS"] ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map { "\($0)/applications" }
        guard let viewer = documentViewers.first(where: { entry in
            directories.contains { FileManager.default.fileExists(atPath: "\($0)/\(entry)") }
        }) else { return nil }
        try FileManager.default.createDirectory(atPath: configHome, withIntermediateDirectories: true)
        try "[Default Applications]\napplication/pdf=\(viewer)\n".write(toFile: configHome + "/mimeapps.list", atomically: true, encoding: .utf8)
        return viewer
    }

    /// One accessible object as AT-SPI reports it.
    public struct Accessible: Sendable, CustomStringConvertible {
        /// A rectangle in its window's coordinates.
        public struct Extents: Sendable, Hashable, CustomStringConvertible {
            public let x: Int, y: Int, width: Int, height: Int
            public init(x: Int, y: Int, width: Int, height: Int) {
                self.x = x
                self.y = y
                self.width = width
                self.height = height
            }
            /// Whether `other` lies wholly inside this rectangle (and is not empty).
            public func contains(_ other: Extents) -> Bool {
                other.width > 0 && other.height > 0 && other.x >= x && other.y >= y
                    && other.x + other.width <= x + width && other.y + other.height <= y + height
            }
            public var description: String { "\(width)×\(height) at \(x),\(y)" }
        }

        public let depth: Int
        public let role: String
        public let name: String
        public let detail: String
        public let states: Set<String>
        /// Where it is drawn (nil when AT-SPI gives no Component interface).
        public var extents: Extents? = nil
        /// A spin button's or slider's value (nil without a Value interface).
        public var value: Double? = nil
        public var description: String {
            "\(role) \"\(name)\" [\(states.sorted().joined(separator: ","))]\(extents.map { " \($0)" } ?? "")"
        }
    }

    /// The objects below the first one that `matches` (its subtree, itself first): one
    /// window's controls when several windows have one of the same name.
    public static func subtree(_ tree: [Accessible], of matches: (Accessible) -> Bool) -> [Accessible] {
        guard let start = tree.firstIndex(where: matches) else { return [] }
        let depth = tree[start].depth
        let end = tree[(start + 1)...].firstIndex { $0.depth <= depth } ?? tree.endIndex
        return Array(tree[start..<end])
    }

    /// The accessibility tree of the application named `application` (AT-SPI); empty when it
    /// cannot be read within `timeout` seconds (a large table's tree on a loaded machine takes long).
    public func accessibilityTree(of application: String = "quire-look", timeout: Double = 30) -> [Accessible] {
        let script = Samples.repositoryRoot.appendingPathComponent("Tests/Support/atspi-tree.py").path
        let result = ProcessRunner.run(["/usr/bin/python3", script, application], environment: environment(), timeout: timeout)
        guard result.status == 0 else { return [] }
        return result.standardOutputText.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 5, let depth = Int(fields[0]) else { return nil }
            var object = Accessible(depth: depth, role: fields[1], name: fields[2], detail: fields[3],
                                    states: Set(fields[4].split(separator: ",").map(String.init)))
            if fields.count >= 7 {
                let box = fields[5].split(separator: ",").compactMap { Int($0) }
                if box.count == 4 { object.extents = .init(x: box[0], y: box[1], width: box[2], height: box[3]) }
                object.value = Double(fields[6])
            }
            return object
        }
    }

    /// Presses the push button named `name` through AT-SPI (its first action); whether it was found.
    @discardableResult
    public func press(_ name: String, in application: String = "quire-look") -> Bool {
        let script = Samples.repositoryRoot.appendingPathComponent("Tests/Support/atspi-tree.py").path
        return ProcessRunner.run(["/usr/bin/python3", script, application, "--press", name],
                                 environment: environment(), timeout: 30).status == 0
    }

    /// Selects the list item named `name` through AT-SPI (its list's Selection); whether it was found.
    @discardableResult
    public func select(_ name: String, in application: String = "quire-look") -> Bool {
        let script = Samples.repositoryRoot.appendingPathComponent("Tests/Support/atspi-tree.py").path
        return ProcessRunner.run(["/usr/bin/python3", script, application, "--select", name],
                                 environment: environment(), timeout: 30).status == 0
    }

    /// Polls the accessibility tree until `condition` holds (or `timeout`); the last tree read.
    /// Each read may take up to `readTimeout` seconds. A read that failed (the reader ran out of
    /// time on a loaded machine: an empty tree — a live window always has its application and
    /// frame) never counts as meeting the condition, so "a text has gone" is not taken from a
    /// failed read; and a wait whose last read failed reads again, up to `readTimeout` past
    /// its deadline, so one slow read does not end it with nothing.
    public func waitForAccessible(timeout: Double = 20, readTimeout: Double = 30, _ condition: ([Accessible]) -> Bool) -> [Accessible] {
        let deadline = Date().addingTimeInterval(timeout)
        var tree = accessibilityTree(timeout: readTimeout)
        while tree.isEmpty || !condition(tree) {
            let now = Date()
            if now >= deadline && !(tree.isEmpty && now < deadline.addingTimeInterval(readTimeout)) { break }
            usleep(200_000)
            tree = accessibilityTree(timeout: readTimeout)
        }
        return tree
    }
}
