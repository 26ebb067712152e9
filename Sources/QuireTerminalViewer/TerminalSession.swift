#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireRender
import QuireSystem
import QuireTerminal

/// The terminal as a full-screen program holds it: raw keyboard, the alternate screen, no
/// cursor. The previous state comes back on every way out: ``end()``, Ctrl-C, SIGTERM,
/// SIGHUP, SIGQUIT, and crashes (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP) — the
/// signal handlers write a prepared byte sequence and reset the terminal mode with
/// async-signal-safe calls only, then let the signal take its course.
///
/// SIGWINCH and the termination signals also wake ``readKeys(timeout:)`` through a pipe, so the
/// viewer re-lays out at once, or saves its state and exits.
final class TerminalSession {
    /// Why the key reader woke up.
    enum Event {
        /// The keys, and the bytes they were read from (a terminal's late answers to a query
        /// come this way too, and parse as unknown keys).
        case keys([TerminalKey], bytes: [UInt8])
        case resized
        /// SIGTERM, SIGHUP, SIGINT or SIGQUIT arrived; the terminal is already restored.
        case terminated(Int32)
        case timeout
    }

    let input: Int32 = STDIN_FILENO
    let output: Int32 = STDOUT_FILENO
    private(set) var isActive = false
    private var pendingBytes: [UInt8] = []

    /// Takes over the terminal. `extraRestore` is written before leaving the alternate screen
    /// (e.g. the kitty "delete all images" command).
    /// - Parameter enteringScreen: false leaves the alternate screen for
    ///   ``enterAlternateScreen()`` (the graphics probe runs before it: tmux drops passthrough
    ///   sequences while it redraws a pane that switched screens).
    func begin(enteringScreen: Bool = true) throws(TerminalSessionError) {
        var mode = termios()
        guard tcgetattr(input, &mode) == 0 else {
            throw TerminalSessionError("cannot read the terminal mode: \(Errno.current)")
        }
        TerminalSignals.savedMode = mode
        TerminalSignals.setRestoreSequence(Self.restoreSequence(kitty: false))
        let pipeEnds: [Int32]
        do {
            let ends = try FileDescriptor.pipe()
            pipeEnds = [ends.readEnd.rawValue, ends.writeEnd.rawValue]
        } catch {
            throw TerminalSessionError("cannot create a pipe: \(error)")
        }
        for end in pipeEnds {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        TerminalSignals.wakeRead = pipeEnds[0]
        TerminalSignals.wakeWrite = pipeEnds[1]
        TerminalSignals.install()

        var raw = mode
        cfmakeraw(&raw)
        raw.c_oflag |= tcflag_t(OPOST | ONLCR)  // keep "\n" as a new line for our own output
        // Ctrl-C stays a signal, so that it ends the viewer even while a renderer is busy (the
        // handler restores the terminal at once); Ctrl-Z is disabled, as a stopped full-screen
        // program would leave the shell on the alternate screen in raw mode.
        raw.c_lflag |= tcflag_t(ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VSUSP)] = 0  // _POSIX_VDISABLE
        }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
            throw TerminalSessionError("cannot set raw mode: \(Errno.current)")
        }
        TerminalSignals.active = 1
        isActive = true
        if enteringScreen { enterAlternateScreen() }
    }

    /// The alternate screen, cursor hidden, no line wrap, cleared.
    func enterAlternateScreen() {
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[2J\u{1B}[H")
    }

    /// Uses the kitty image deletion command on the way out too.
    func setUsesKittyImages(_ kitty: Bool, throughTmux: Bool = false) {
        TerminalSignals.setRestoreSequence(Self.restoreSequence(kitty: kitty, throughTmux: throughTmux))
    }

    static func restoreSequence(kitty: Bool, throughTmux: Bool = false) -> [UInt8] {
        let delete = kitty ? (throughTmux ? KittyPlaceholders.deleteAll : Array("\u{1B}_Ga=d\u{1B}\\".utf8)) : []
        return delete + Array("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l".utf8)
    }

    /// Gives the terminal back as it was (idempotent).
    func end() {
        guard isActive else { return }
        isActive = false
        TerminalSignals.restore()
        TerminalSignals.uninstall()
    }

    /// Whether a termination signal already restored the terminal (output is pointless then).
    var wasRestoredBySignal: Bool { TerminalSignals.active == 0 && isActive }

    func write(_ text: String) {
        write(Array(text.utf8))
    }

    func write(_ bytes: [UInt8]) {
        guard TerminalSignals.active == 1 else { return }
        try? FileDescriptor(rawValue: output).writeAll(bytes)
    }

    /// Columns, rows and (where the terminal says) the window's size in pixels.
    func size() -> (columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int) {
        var size = winsize()
        if ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row), Int(size.ws_xpixel), Int(size.ws_ypixel))
        }
        return (80, 24, 0, 0)
    }

    /// Waits up to `timeout` milliseconds (-1: forever) for keys, a resize or a signal.
    func readKeys(timeout: Int32) -> Event {
        if let signal = TerminalSignals.takePendingTermination() { return .terminated(signal) }
        var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: TerminalSignals.wakeRead, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, 2, timeout)
        if ready < 0 {
            if let signal = TerminalSignals.takePendingTermination() { return .terminated(signal) }
            if TerminalSignals.takeResize() { return .resized }
            return .timeout
        }
        if fds[1].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            _ = read(TerminalSignals.wakeRead, &drain, drain.count)
            if let signal = TerminalSignals.takePendingTermination() { return .terminated(signal) }
            if TerminalSignals.takeResize() { return .resized }
        }
        guard fds[0].revents != 0 else { return .timeout }
        if fds[0].revents & Int16(POLLIN) == 0 {
            // Hang-up or error on the terminal: nobody is left to read keys from.
            return .terminated(SIGHUP)
        }
        var bytes = readAvailable()
        if bytes.isEmpty { return .terminated(SIGHUP) }
        // A lone ESC or a cut-off sequence: wait a moment for the rest.
        while TerminalKey.isIncomplete(bytes), waitForInput(milliseconds: 40) {
            let more = readAvailable()
            if more.isEmpty { break }
            bytes += more
        }
        return .keys(TerminalKey.parse(bytes), bytes: bytes)
    }

    /// Reads whatever the terminal sent until `until` returns true or `milliseconds` pass
    /// (answers to queries).
    func readReply(milliseconds: Int, until done: ([UInt8]) -> Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        let start = MonotonicClock.wholeMilliseconds()
        while !done(bytes) {
            let elapsed = MonotonicClock.wholeMilliseconds() - start
            let left = milliseconds - elapsed
            if left <= 0 || !waitForInput(milliseconds: Int32(left)) { break }
            let more = readAvailable()
            if more.isEmpty { break }
            bytes += more
        }
        return bytes
    }

    private func waitForInput(milliseconds: Int32) -> Bool {
        var fd = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, milliseconds) > 0 && fd.revents & Int16(POLLIN) != 0
    }

    private func readAvailable() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { raw in (try? FileDescriptor(rawValue: input).read(into: raw)) ?? 0 }
        return Array(buffer[..<count])
    }

    /// Whether a key is waiting (for work done between keys).
    var hasPendingInput: Bool { waitForInput(milliseconds: 0) }
}

public struct TerminalSessionError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
