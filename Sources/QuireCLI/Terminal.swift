#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireRender
import QuireSystem
import QuireTypes

/// Where output goes and how it may be styled.
enum Terminal {
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Colour and bold only on a terminal, and never when `NO_COLOR` is set (no-color.org).
    static var stylesStandardOutput: Bool {
        let noColor = environment("NO_COLOR").map { !$0.isEmpty } ?? false
        return !noColor && isTerminal(STDOUT_FILENO) && environment("TERM") != "dumb"
    }

    static func bold(_ text: String, enabled: Bool) -> String {
        enabled ? "\u{1B}[1m\(text)\u{1B}[0m" : text
    }

    static func dim(_ text: String, enabled: Bool) -> String {
        enabled ? "\u{1B}[2m\(text)\u{1B}[0m" : text
    }

    /// Writes to standard output, unbuffered by Swift (`print` is for the CLI only).
    static func out(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    /// Writes one `quire: message` line to standard error. A newline becomes a space; any
    /// other control character (a name or tag quoted from a file) is escaped
    /// (``TerminalEscaping``; names are escaped already, so their backslashes stay as they are).
    static func error(_ message: String) {
        let joined = message.utf8.contains(UInt8(ascii: "\n"))
            ? String(decoding: message.utf8.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            : message
        let oneLine = TerminalEscaping.escaped(joined, backslashes: false)
        write("quire: " + oneLine + "\n", to: STDERR_FILENO)
    }

    /// An environment variable, or nil when unset.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Writes progress-bar text to standard error as it is (no prefix, no newline).
    static func errorText(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// Writes data (a PNG, terminal graphics) to standard output; a failed write (a full disk,
    /// a closed pipe) is an I/O error, so that no truncated output passes for a result.
    static func outputData(_ bytes: [UInt8]) throws {
        do { try FileDescriptor.standardOutput.writeAll(bytes) } catch {
            self.error("cannot write to standard output: \(error)")
            throw ExitStatus.ioError.exitCode
        }
    }

    /// Text output: a closed or full output (EPIPE, ENOSPC) ends the write quietly, as there is
    /// nowhere left to report it.
    private static func write(_ text: String, to fd: Int32) {
        var text = text
        _ = text.withUTF8 { try? FileDescriptor(rawValue: fd).writeAll(UnsafeRawBufferPointer($0)) }
    }

    /// `text` cut or padded with spaces to `width` characters (for aligned columns).
    static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }

    static func warning(_ message: String) {
        error("warning: " + message)
    }
}
