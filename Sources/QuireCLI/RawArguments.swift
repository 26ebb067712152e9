import Quire

/// The command line as the kernel passed it: bytes, not `String`s.
///
/// Swift decodes `argv` as UTF-8 and replaces invalid bytes, so a file named with invalid UTF-8
/// could not be opened from the parsed `String`. Quire maps each parsed argument back to the
/// exact `argv` entry it came from.
enum RawArguments {
    static let entries: [[UInt8]] = (0..<Int(CommandLine.argc)).map { index in
        guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
        var bytes: [UInt8] = []
        var offset = 0
        while true {
            let byte = UInt8(bitPattern: pointer[offset])
            if byte == 0 { break }
            bytes.append(byte)
            offset += 1
        }
        return bytes
    }

    /// The exact path bytes for a parsed path argument.
    static func path(_ argument: String) -> DocumentPath {
        let utf8 = Array(argument.utf8)
        if entries.contains(utf8) { return DocumentPath(argument) }
        if let raw = entries.first(where: { String(decoding: $0, as: UTF8.self) == argument }) {
            return DocumentPath(bytes: raw)
        }
        return DocumentPath(argument)
    }
}
