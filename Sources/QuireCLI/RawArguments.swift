import Quire
import QuireArguments

/// The command line as the kernel passed it: bytes, not `String`s.
///
/// Swift decodes `argv` as UTF-8 and replaces invalid bytes, so a file named with invalid UTF-8
/// could not be opened from the parsed `String`. Quire maps each parsed argument back to the
/// exact `argv` entry it came from.
enum RawArguments {
    static let entries: [[UInt8]] = CommandLineBytes.read()

    /// The exact path bytes for a parsed path argument.
    static func path(_ argument: String) -> DocumentPath {
        path(argument, in: entries)
    }

    /// The exact path bytes for `argument`, parsed from `entries` (each decoded as UTF-8).
    static func path(_ argument: String, in entries: [[UInt8]]) -> DocumentPath {
        let utf8 = Array(argument.utf8)
        if entries.contains(utf8) { return DocumentPath(argument) }
        if let raw = entries.first(where: { String(decoding: $0, as: UTF8.self) == argument }) {
            return DocumentPath(bytes: raw)
        }
        return DocumentPath(argument)
    }
}
