import Foundation

/// A terminal program under test: a private tmux server (its own `-L` socket) with one
/// 100×40 window running `bash`, which runs the program, prints `EXIT=<status>` and gives a
/// prompt (`READY$ `) back. Keys go in with `send-keys`, the screen comes out with
/// `capture-pane`. File names reach the program as arguments, never through a shell's parser.
public final class TmuxSession: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let socket: String
    public static let prompt = "READY$ "

    /// Starts `arguments` (program first) in a new tmux server with `environment`.
    public init(_ arguments: [String], environment: [String: String], width: Int = 100, height: Int = 40) throws {
        socket = "quire-test-\(UUID().uuidString.prefix(8))"
        var env = environment
        env["TMUX"] = nil
        // A terminal as over SSH or on a console: no display (else `quire look` opens its window).
        env["DISPLAY"] = nil
        env["WAYLAND_DISPLAY"] = nil
        env["PS1"] = Self.prompt
        env["TERM"] = "xterm-256color"
        let script = "\"$@\"; echo \"EXIT=$?\"; export PS1='READY$ '; exec bash --norc --noprofile"
        let result = ProcessRunner.run(
            ["/usr/bin/tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)",
             "/bin/bash", "--norc", "--noprofile", "-c", script, "quire-test"] + arguments,
            environment: env, timeout: 20)
        guard result.status == 0 else {
            throw Failure(description: "tmux did not start: \(result.standardError)")
        }
    }

    deinit {
        _ = tmux(["kill-server"])
    }

    @discardableResult
    func tmux(_ arguments: [String]) -> ProcessRunner.Result {
        ProcessRunner.run(["/usr/bin/tmux", "-L", socket] + arguments, timeout: 20)
    }

    /// Sends tmux key names ("PageDown", "Right", "q", "Enter", "Escape").
    public func send(_ keys: String...) {
        tmux(["send-keys", "-t", "0"] + keys)
    }

    /// Resizes the window (the program gets SIGWINCH).
    public func resize(width: Int, height: Int) {
        tmux(["resize-window", "-t", "0", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Types `text` literally.
    public func type(_ text: String) {
        tmux(["send-keys", "-t", "0", "-l", text])
    }

    /// The visible screen as text (`escapes`: with colour escape sequences).
    public func capture(escapes: Bool = false) -> String {
        tmux(["capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : [])).standardOutputText
    }

    /// The pane's title, as programs set it with OSC 0 / OSC 2 (`#{pane_title}`).
    public var paneTitle: String {
        tmux(["display-message", "-p", "-t", "0", "#{pane_title}"]).standardOutputText
    }

    /// Lets programs write tmux's paste buffers with OSC 52 (`set-clipboard on`), so a test can
    /// see whether one tried (``pasteBuffers``).
    public func acceptClipboardWrites() {
        tmux(["set-option", "-g", "set-clipboard", "on"])
    }

    /// tmux's paste buffers with their contents (what OSC 52 writes when accepted).
    public var pasteBuffers: String {
        tmux(["list-buffers", "-F", "#{buffer_name}: #{buffer_sample}"]).standardOutputText
    }

    /// Whether the program holds the alternate screen (`#{alternate_on}`).
    public var alternateOn: Bool {
        tmux(["display-message", "-p", "-t", "0", "#{alternate_on}"]).standardOutputText.hasPrefix("1")
    }

    /// The pid of the program (the pane's shell's child).
    public var programPID: Int32? {
        let shell = tmux(["display-message", "-p", "-t", "0", "#{pane_pid}"]).standardOutputText
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8) else { return nil }
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }

    /// The children of process `pid` (from every thread's `children` list in /proc).
    public static func children(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task -> [Int32] in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { Int32($0) }
        }
    }

    /// Every process below `pid` (children, their children…).
    public static func descendants(of pid: Int32) -> [Int32] {
        let direct = children(of: pid)
        return direct + direct.flatMap { descendants(of: $0) }
    }

    /// The render workers below `pid`: the processes running `executable` with the render
    /// service's word (inside bubblewrap they are grandchildren, below bwrap's own processes).
    public static func renderWorkers(of pid: Int32, executable: String) -> [Int32] {
        let target = URL(fileURLWithPath: executable).resolvingSymlinksInPath().path
        return descendants(of: pid).filter { process in
            guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process)/exe"),
                  let command = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(process)/cmdline")) else { return false }
            return exe == target && String(decoding: command, as: UTF8.self).contains("__render-worker")
        }
    }

    /// Waits until the screen satisfies `condition`; returns the last capture.
    @discardableResult
    public func wait(timeout: Double = 30, escapes: Bool = false, until condition: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = capture(escapes: escapes)
        while !condition(screen) && Date() < deadline {
            usleep(50_000)
            screen = capture(escapes: escapes)
        }
        return screen
    }

    /// Waits until `text` is on screen; returns the last capture.
    @discardableResult
    public func wait(for text: String, timeout: Double = 30) -> String {
        wait(timeout: timeout) { $0.contains(text) }
    }

    /// Whether the viewer's frame on screen is whole. Each frame clears the screen and ends with
    /// the status line on the bottom row, and a large frame reaches tmux in pieces, so a capture
    /// can catch one half drawn: its bottom row is still blank. Waits whose condition a half-drawn
    /// frame could meet (a text having gone) also wait for this.
    public static func frameIsWhole(_ screen: String) -> Bool {
        var rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
        if rows.last == "" { rows.removeLast() }
        return !(rows.last ?? "").trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// The last line of the screen that is not empty.
    public static func lastLine(_ screen: String) -> String {
        screen.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }).map(String.init) ?? ""
    }
}
