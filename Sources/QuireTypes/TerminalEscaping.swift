/// The one escaping of text that came from a file (names, titles, tags, archive entries,
/// e-mail headers, CSV cells, error messages that quote them) before it reaches a terminal or
/// a one-line message: control characters (C0, DEL, C1 — ESC, BEL, CSI, OSC, …), the line and
/// paragraph separators and invalid UTF-8 are written as visible escapes (`\n`, `\t`, `\r`,
/// `\x1B`, `\u{9b}`, `\u{2028}`), so the result is one printable line that cannot move the cursor, set
/// the window title, write the clipboard (OSC 52) or start any other terminal sequence.
///
/// Every terminal writer goes through here: `DocumentPath`'s display forms, `quire info` and
/// `preview --info`, error lines, and the terminal viewer (status bar, info card, archive entry
/// list, text pages, tiles). `fuzz-terminal-escaping` checks its promises.
public enum TerminalEscaping {
    /// `bytes` as one printable line: valid UTF-8 kept except the characters ``needsEscaping(_:)``
    /// names; invalid bytes as `\xHH`. With `backslashes` (the default), `\` is doubled, so the
    /// escaped form reads back unambiguously (names); without, text that was escaped already
    /// (a message quoting an escaped name) passes through unchanged.
    public static func escaped(_ bytes: [UInt8], backslashes: Bool = true) -> String {
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
            append(scalar, to: &out, backslashes: backslashes)
            index += length
        }
        return out
    }

    /// `text` as one printable line (see ``escaped(_:backslashes:)-([UInt8],_)``); returned as
    /// it is when nothing in it needs escaping.
    public static func escaped(_ text: String, backslashes: Bool = true) -> String {
        guard text.unicodeScalars.contains(where: { needsEscaping($0) || (backslashes && $0 == "\\") }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars { append(scalar, to: &out, backslashes: backslashes) }
        return out
    }

    /// Whether `scalar` is shown escaped: C0 controls (tab and newline included), DEL, C1
    /// controls, U+2028 and U+2029. (A backslash is escaped only when asked.)
    @inline(__always)
    public static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }

    /// One scalar, escaped if it must be (for writers that place text character by character,
    /// such as the terminal viewer's marked text lines).
    public static func escaped(_ scalar: Unicode.Scalar, backslashes: Bool = true) -> String {
        var out = ""
        append(scalar, to: &out, backslashes: backslashes)
        return out
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String, backslashes: Bool) {
        switch scalar {
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        case "\\": out += backslashes ? "\\\\" : "\\"
        default:
            if needsEscaping(scalar) {
                // C0 and DEL as bytes (`\x1B`); C1 and the separators as scalars (`\u{9b}`), so
                // that a C1 character and an invalid byte of the same value read back apart.
                out += scalar.value < 0x80 ? "\\x" + hex(UInt8(scalar.value)) : "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
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
}
