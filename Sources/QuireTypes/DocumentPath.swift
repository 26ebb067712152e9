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
    public var displayName: String { Self.escaped(lastComponentBytes) }

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
    /// (`\n`, `\t`, `\xFF`), so that a message naming it stays on one line.
    public var description: String { Self.escaped(bytes) }

    /// Escapes control characters and invalid UTF-8 so that the result is one printable line.
    public static func escaped(_ bytes: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < bytes.count {
            let length = validUTF8SequenceLength(bytes, at: index)
            if length == 0 {
                out += "\\x" + hex(bytes[index])
                index += 1
                continue
            }
            let scalarBytes = bytes[index..<(index + length)]
            let scalar = String(decoding: scalarBytes, as: UTF8.self).unicodeScalars.first!
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                    || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += scalar.value <= 0xFF ? "\\x" + hex(UInt8(scalar.value)) : "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            index += length
        }
        return out
    }

    private static func hex(_ byte: UInt8) -> String {
        // ASCII arithmetic, no per-call array: this runs for every escaped byte.
        func digit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x37 + value }
        return String(decoding: [digit(byte >> 4), digit(byte & 0xF)], as: UTF8.self)
    }

    /// Length of the valid UTF-8 sequence starting at `index`, or 0 when the byte there does
    /// not start one.
    private static func validUTF8SequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let first = bytes[index]
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch first {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upperBound = 0x9F
        case 0xF0: length = 4; lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upperBound = 0x8F
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            let low = offset == 1 ? lowerBound : 0x80
            let high = offset == 1 ? upperBound : 0xBF
            if byte < low || byte > high { return 0 }
        }
        return length
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { try body($0) }
        }
    }
}

import FoundationEssentials
