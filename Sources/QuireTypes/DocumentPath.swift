/// A file-system path kept as raw bytes.
///
/// Linux file names are byte strings: they may hold newlines, leading dashes or bytes that are
/// not UTF-8. `String` and `URL` cannot carry such names unchanged, so Quire keeps the exact
/// bytes for opening the file and derives a safe, one-line form for messages.
public struct DocumentPath: Sendable, Hashable, CustomStringConvertible {
    /// The exact bytes of the path, without a terminating NUL.
    public let bytes: [UInt8]

    /// A path from raw bytes (for example a `argv` entry). Bytes after a NUL are dropped.
    /// (Inlinable, so callers get it specialized: the generic form looks up `prefix(while:)`'s
    /// types at run time, which showed up in every thumbnail's start-up.)
    @inlinable
    public init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes.prefix { $0 != 0 })
    }

    /// A path from a byte array (the common case: no copy unless there is a NUL to cut at).
    @inlinable
    public init(bytes: [UInt8]) {
        if let nul = bytes.firstIndex(of: 0) { self.bytes = Array(bytes[..<nul]) } else { self.bytes = bytes }
    }

    /// A path from a Swift string (its UTF-8 bytes).
    public init(_ string: String) {
        self.init(bytes: string.utf8)
    }

    /// A path from a `file:` URL. The URL's path is used as is.
    public init(url: URL) {
        self.init(url.path)
    }

    /// The path decoded as UTF-8, with invalid bytes replaced by U+FFFD. For display in
    /// structured output; never use it to reopen the file.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// The last path component as raw bytes.
    public var lastComponentBytes: [UInt8] {
        let trimmed = bytes.last == UInt8(ascii: "/") && bytes.count > 1 ? Array(bytes.dropLast()) : bytes
        if let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) {
            return Array(trimmed[(slash + 1)...])
        }
        return trimmed
    }

    /// The file name for display: one line, control characters and invalid UTF-8 escaped.
    public var displayName: String { TerminalEscaping.escaped(lastComponentBytes) }

    /// The path as a JSON string carries it: the exact text when the bytes are UTF-8 (JSON
    /// escapes control characters itself, once), else the escaped display form (JSON strings
    /// cannot hold invalid UTF-8).
    public var jsonText: String {
        String(validating: bytes, as: UTF8.self) ?? description
    }

    /// The file name as a JSON string carries it (see ``jsonText``).
    public var jsonName: String {
        String(validating: lastComponentBytes, as: UTF8.self) ?? displayName
    }

    /// The whole path for display: one line, control characters and invalid UTF-8 escaped
    /// (`\n`, `\t`, `\xFF`: ``TerminalEscaping``), so that a message naming it stays on one line.
    public var description: String { TerminalEscaping.escaped(bytes) }

    /// Calls `body` with the path as a NUL-terminated C string.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { try body($0) }
        }
    }
}

import FoundationEssentials
