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

    public init() throws {
        directory = TemporaryDirectory("quire-x11")
        let result = ProcessRunner.run([Self.script, "start", directory.path], timeout: 60)
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

    /// Types text into the focused window.
    public func type(_ text: String) {
        run(["/usr/bin/xdotool", "type", "--delay", "60", text])
    }

    /// A screenshot of the whole screen (imagemagick `import -window root`): the PNG's path.
    public func screenshot(_ name: String) throws -> String {
        let path = directory.file(name + ".png")
        let result = run(["/usr/bin/import", "-window", "root", path])
        guard result.status == 0 else { throw BackgroundProcessError(message: "import failed: \(result.standardError)") }
        return path
    }

    /// One accessible object as AT-SPI reports it.
    public struct Accessible: Sendable, CustomStringConvertible {
        public let depth: Int
        public let role: String
        public let name: String
        public let detail: String
        public let states: Set<String>
        public var description: String { "\(role) \"\(name)\" [\(states.sorted().joined(separator: ","))]" }
    }

    /// The accessibility tree of the application named `application` (AT-SPI).
    public func accessibilityTree(of application: String = "quire-look") -> [Accessible] {
        let script = Samples.repositoryRoot.appendingPathComponent("Tests/Support/atspi-tree.py").path
        let result = ProcessRunner.run(["/usr/bin/python3", script, application], environment: environment(), timeout: 30)
        guard result.status == 0 else { return [] }
        return result.standardOutputText.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, let depth = Int(fields[0]) else { return nil }
            return Accessible(depth: depth, role: fields[1], name: fields[2], detail: fields[3],
                              states: Set(fields[4].split(separator: ",").map(String.init)))
        }
    }

    /// Presses the push button named `name` through AT-SPI (its first action); whether it was found.
    @discardableResult
    public func press(_ name: String, in application: String = "quire-look") -> Bool {
        let script = Samples.repositoryRoot.appendingPathComponent("Tests/Support/atspi-tree.py").path
        return ProcessRunner.run(["/usr/bin/python3", script, application, "--press", name],
                                 environment: environment(), timeout: 30).status == 0
    }

    /// Polls the accessibility tree until `condition` holds (or `timeout`); the last tree read.
    public func waitForAccessible(timeout: Double = 20, _ condition: ([Accessible]) -> Bool) -> [Accessible] {
        let deadline = Date().addingTimeInterval(timeout)
        var tree = accessibilityTree()
        while !condition(tree) && Date() < deadline {
            usleep(200_000)
            tree = accessibilityTree()
        }
        return tree
    }
}
