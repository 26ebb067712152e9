#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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

    /// Writes one `quire: message` line to standard error.
    static func error(_ message: String) {
        let oneLine = message.utf8.contains(UInt8(ascii: "\n"))
            ? String(decoding: message.utf8.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            : message
        write("quire: " + oneLine + "\n", to: STDERR_FILENO)
    }

    /// An environment variable, or nil when unset.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// `write(2)` until done, retrying on EINTR. A closed or full output (EPIPE, ENOSPC) ends
    /// the write quietly: there is nowhere left to report it.
    private static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    static func warning(_ message: String) {
        error("warning: " + message)
    }
}
