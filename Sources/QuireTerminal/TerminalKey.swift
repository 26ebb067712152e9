/// A key from a terminal in raw mode, decoded from the bytes xterm-compatible terminals send.
package enum TerminalKey: Hashable {
    case character(Character)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, pageUp, pageDown, home, end
    case shiftUp, shiftDown, shiftLeft, shiftRight
    /// Ctrl + a letter ("c" for Ctrl-C).
    case control(Character)
    /// A sequence the viewer has no use for (including answers to queries).
    case unknown

    /// Whether `bytes` ends inside an escape sequence (or is a lone ESC) that more bytes may
    /// complete.
    package static func isIncomplete(_ bytes: [UInt8]) -> Bool {
        guard let escape = bytes.lastIndex(of: 0x1B) else { return false }
        let tail = bytes[(escape + 1)...]
        guard let first = tail.first else { return true }
        switch first {
        case UInt8(ascii: "["):
            return !tail.dropFirst().contains { (0x40...0x7E).contains($0) }
        case UInt8(ascii: "O"):
            return tail.count < 2
        default:
            return false
        }
    }

    /// Decodes every key in `bytes`.
    package static func parse(_ bytes: [UInt8]) -> [TerminalKey] {
        var keys: [TerminalKey] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x1B:
                guard index < bytes.count else { keys.append(.escape); break }
                let next = bytes[index]
                if next == UInt8(ascii: "[") {
                    var end = index + 1
                    while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                    guard end < bytes.count else { index = bytes.count; keys.append(.unknown); break }
                    let parameters = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                    keys.append(csi(parameters: parameters, final: bytes[end]))
                    index = end + 1
                } else if next == UInt8(ascii: "O"), index + 1 < bytes.count {
                    keys.append(csi(parameters: "", final: bytes[index + 1]))
                    index += 2
                } else if next == UInt8(ascii: "_") || next == UInt8(ascii: "P") || next == UInt8(ascii: "]") {
                    // APC, DCS, OSC: a terminal's answer to a query, up to ST (ESC \) or BEL.
                    var end = index + 1
                    while end < bytes.count, bytes[end] != 0x07, !(bytes[end] == 0x1B && end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: "\\")) {
                        end += 1
                    }
                    index = min(bytes.count, end + (end < bytes.count && bytes[end] == 0x1B ? 2 : 1))
                    keys.append(.unknown)
                } else if next == 0x1B {
                    keys.append(.escape)
                } else {
                    // Alt + key: the viewer has no Alt bindings.
                    keys.append(.unknown)
                    index += 1
                }
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x09: keys.append(.tab)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x01...0x1A:
                keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
            case 0x00, 0x1C...0x1F: keys.append(.unknown)
            default:
                // One UTF-8 character.
                var length = 1
                if byte >= 0xF0 { length = 4 } else if byte >= 0xE0 { length = 3 } else if byte >= 0xC0 { length = 2 }
                let end = min(bytes.count, index - 1 + length)
                let text = String(decoding: bytes[(index - 1)..<end], as: UTF8.self)
                index = end
                if let character = text.first, text.count == 1 { keys.append(.character(character)) } else { keys.append(.unknown) }
            }
        }
        return keys
    }

    private static func csi(parameters: String, final: UInt8) -> TerminalKey {
        let fields = parameters.split(separator: ";")
        let shifted = fields.count >= 2 && fields[1] == "2"
        switch final {
        case UInt8(ascii: "A"): return shifted ? .shiftUp : .up
        case UInt8(ascii: "B"): return shifted ? .shiftDown : .down
        case UInt8(ascii: "C"): return shifted ? .shiftRight : .right
        case UInt8(ascii: "D"): return shifted ? .shiftLeft : .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "Z"): return .backTab
        case UInt8(ascii: "~"):
            switch fields.first {
            case "1", "7": return .home
            case "4", "8": return .end
            case "5": return .pageUp
            case "6": return .pageDown
            case "3": return .delete
            default: return .unknown
            }
        default: return .unknown
        }
    }
}
