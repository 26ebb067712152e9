// libFuzzer target: TerminalEscaping, the one function every terminal writer sends text from a
// file through (names, PDF titles, media tags, archive entries, error lines, the terminal
// viewer's status bar, card, entry list and text pages).
// Properties, for any bytes:
// - the escaped form holds no character a terminal acts on: no C0 control (ESC, BEL, newline…),
//   no DEL, no C1 control (CSI, OSC as U+009B/U+009D), no line or paragraph separator;
// - it reads back to exactly the bytes (the `\n`, `\t`, `\r`, `\\`, `\xHH`, `\u{…}` forms);
// - the String form agrees with the byte form for valid UTF-8, and escaping scalar by scalar
//   (the viewer's marked text lines) gives the same text;
// - without backslash doubling, escaping is idempotent (an escaped name quoted in a message
//   passes through an error line unchanged).
// Built with -sanitize=fuzzer (make fuzz); without it, a replay driver runs saved inputs.
import FuzzDriver
import QuireTypes

func fuzzOne(_ bytes: [UInt8]) {
    let escaped = TerminalEscaping.escaped(bytes)
    for scalar in escaped.unicodeScalars {
        precondition(!TerminalEscaping.needsEscaping(scalar), "U+\(String(scalar.value, radix: 16)) left in \(escaped.debugDescription)")
    }
    precondition(!escaped.utf8.contains(0x1B) && !escaped.utf8.contains(0x07) && !escaped.utf8.contains(0x0A))
    precondition(unescape(escaped) == bytes, "\(escaped.debugDescription) does not read back to its bytes")

    let text = String(decoding: bytes, as: UTF8.self)
    let fromText = TerminalEscaping.escaped(text)
    if String(validating: bytes, as: UTF8.self) != nil {
        precondition(fromText == escaped, "String and bytes escape differently")
    }
    var byScalar = ""
    for scalar in text.unicodeScalars { byScalar += TerminalEscaping.escaped(scalar) }
    precondition(byScalar == fromText, "scalar by scalar differs from the whole text")

    let plain = TerminalEscaping.escaped(text, backslashes: false)
    precondition(TerminalEscaping.escaped(plain, backslashes: false) == plain, "escaping without backslashes is not idempotent")
    for scalar in plain.unicodeScalars { precondition(!TerminalEscaping.needsEscaping(scalar)) }
}

/// The escaped form read back (written independently of the escaping).
func unescape(_ text: String) -> [UInt8] {
    let scalars = Array(text.unicodeScalars)
    var out: [UInt8] = []
    var index = 0
    func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": return scalar.value - 0x30
        case "A"..."F": return scalar.value - 0x41 + 10
        case "a"..."f": return scalar.value - 0x61 + 10
        default: return nil
        }
    }
    while index < scalars.count {
        let scalar = scalars[index]
        guard scalar == "\\" else {
            out += Array(String(scalar).utf8)
            index += 1
            continue
        }
        precondition(index + 1 < scalars.count, "a lone backslash at the end")
        switch scalars[index + 1] {
        case "n": out.append(0x0A); index += 2
        case "t": out.append(0x09); index += 2
        case "r": out.append(0x0D); index += 2
        case "\\": out.append(0x5C); index += 2
        case "x":
            precondition(index + 3 < scalars.count, "a short \\x escape")
            guard let high = hexValue(scalars[index + 2]), let low = hexValue(scalars[index + 3]) else {
                preconditionFailure("a \\x escape without two hex digits")
            }
            out.append(UInt8(high * 16 + low))  // always a byte: C1 characters are \u{…}
            index += 4
        case "u":
            precondition(index + 2 < scalars.count && scalars[index + 2] == "{", "\\u without {")
            var value: UInt32 = 0
            var cursor = index + 3
            while cursor < scalars.count, scalars[cursor] != "}" {
                guard let digit = hexValue(scalars[cursor]) else { preconditionFailure("a \\u{} escape with a non-hex digit") }
                value = value * 16 + digit
                cursor += 1
            }
            precondition(cursor < scalars.count, "an unterminated \\u{")
            out += Array(String(Unicode.Scalar(value)!).utf8)
            index = cursor + 1
        default:
            preconditionFailure("an unknown escape \\\(scalars[index + 1])")
        }
    }
    return out
}

#if FUZZING
@_cdecl("fuzz_terminal_escaping_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzzOne)
}
#else
@main
struct TerminalEscapingReplay {
    static func main() throws {
        try FuzzDriver.replay(fuzzOne)
    }
}
#endif
