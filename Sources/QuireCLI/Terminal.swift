#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Where output goes and how it may be styled.
enum Terminal {
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Colour and bold only on a terminal, and never when `NO_COLOR` is set (no-color.org).
    static var stylesStandardOutput: Bool {
        let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return !noColor && isTerminal(STDOUT_FILENO)
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    static func bold(_ text: String, enabled: Bool) -> String {
        enabled ? "\u{1B}[1m\(text)\u{1B}[0m" : text
    }

    static func dim(_ text: String, enabled: Bool) -> String {
        enabled ? "\u{1B}[2m\(text)\u{1B}[0m" : text
    }

    /// Writes to standard output, unbuffered by Swift (`print` is for the CLI only).
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes one `quire: message` line to standard error.
    static func error(_ message: String) {
        let line = "quire: " + message.replacingOccurrences(of: "\n", with: " ") + "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    static func warning(_ message: String) {
        error("warning: " + message)
    }
}
