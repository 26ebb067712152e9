/// The character encoding of a delimited text file, as the table reader detects it: a byte-order
/// mark says UTF-8, UTF-16 LE or UTF-16 BE; without one, a sample that is valid UTF-8 is UTF-8,
/// anything else is Latin-1 (every byte is a character, so nothing is ever undecodable).
public enum TableEncoding: String, Sendable, Hashable, Codable {
    case utf8 = "UTF-8"
    case utf8WithBOM = "UTF-8 with BOM"
    case utf16LittleEndian = "UTF-16 LE"
    case utf16BigEndian = "UTF-16 BE"
    case latin1 = "Latin-1"

    /// Bytes of the byte-order mark at the start of the file.
    var markLength: Int {
        switch self {
        case .utf8WithBOM: 3
        case .utf16LittleEndian, .utf16BigEndian: 2
        case .utf8, .latin1: 0
        }
    }

    /// Bytes per code unit (delimiters, quotes and line ends are one unit).
    var unitWidth: Int {
        switch self {
        case .utf16LittleEndian, .utf16BigEndian: 2
        case .utf8, .utf8WithBOM, .latin1: 1
        }
    }

    /// The encoding of a file that starts with `prefix` (a sample of its first bytes; a
    /// multi-byte character cut at the sample's end does not count against UTF-8).
    static func detect(_ prefix: UnsafeRawBufferPointer) -> TableEncoding {
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { return .utf8WithBOM }
        if prefix.starts(with: [0xFF, 0xFE]) { return .utf16LittleEndian }
        if prefix.starts(with: [0xFE, 0xFF]) { return .utf16BigEndian }
        return isUTF8(prefix) ? .utf8 : .latin1
    }

    /// Whether `bytes` is valid UTF-8, allowing one sequence cut short at the end.
    static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return false
            }
            var next = 1
            while next < length {
                guard index + next < count else { return true }  // cut by the sample
                guard bytes[index + next] & 0xC0 == 0x80 else { return false }
                next += 1
            }
            // Overlong three- and four-byte forms and surrogates.
            if lead == 0xE0 && bytes[index + 1] < 0xA0 { return false }
            if lead == 0xED && bytes[index + 1] > 0x9F { return false }
            if lead == 0xF0 && bytes[index + 1] < 0x90 { return false }
            if lead == 0xF4 && bytes[index + 1] > 0x8F { return false }
            index += length
        }
        return true
    }

    /// `units` (code units of this encoding: bytes, or UTF-16 units) as a string; invalid
    /// sequences become U+FFFD.
    func decode(_ units: [UInt16]) -> String {
        switch self {
        case .utf16LittleEndian, .utf16BigEndian:
            return String(decoding: units, as: UTF16.self)
        case .utf8, .utf8WithBOM:
            return String(decoding: units.lazy.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)
        case .latin1:
            var scalars = String.UnicodeScalarView()
            for unit in units { scalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: unit))) }
            return String(scalars)
        }
    }
}
