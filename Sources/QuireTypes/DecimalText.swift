#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Numbers as fixed-point text, in place of `String(format: "%.1f")`, which needs Foundation
/// (see ``Lock``). The C library formats, so rounding is exactly printf's.
package enum DecimalText {
    /// `value` with `decimals` places (0…17), as `printf("%.*f")`: `fixed(2.345, 1)` is "2.3",
    /// `fixed(1, 2)` is "1.00".
    package static func fixed(_ value: Double, _ decimals: Int) -> String {
        let places = Int32(min(max(decimals, 0), 17))
        var buffer = [CChar](repeating: 0, count: 64)
        while true {
            let count = Int(withVaList([places, value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) })
            if count < 0 { return "\(value)" }
            if count < buffer.count {
                return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            buffer = [CChar](repeating: 0, count: count + 1)
        }
    }
}
