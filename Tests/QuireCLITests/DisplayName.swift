/// The escaped display form Quire promises for names: `\n`, `\t`, `\r`, `\\`, other control
/// characters and invalid UTF-8 bytes as `\xHH`. Written independently of the product's code.
enum Display {
    static func escaped(_ bytes: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = byte < 0x80 ? 1 : byte >= 0xC2 && byte <= 0xDF ? 2 : byte >= 0xE0 && byte <= 0xEF ? 3
                : byte >= 0xF0 && byte <= 0xF4 ? 4 : 0
            if length > 1, index + length <= bytes.count,
               let scalar = String(validating: bytes[index..<(index + length)], as: UTF8.self) {
                out += scalar
                index += length
                continue
            }
            switch byte {
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0x0D: out += "\\r"
            case 0x5C: out += "\\\\"
            case 0x20..<0x7F: out += String(UnicodeScalar(byte))
            default: out += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
            index += 1
        }
        return out
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
