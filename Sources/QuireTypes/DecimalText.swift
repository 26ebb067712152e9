import QuireSystem

/// Numbers as fixed-point text, in place of `String(format: "%.1f")`, which needs Foundation
/// (see ``Lock``). The C library formats, so rounding is exactly printf's.
package enum DecimalText {
    /// `value` with `decimals` places (0…17), as `printf("%.*f")`: `fixed(2.345, 1)` is "2.3",
    /// `fixed(1, 2)` is "1.00".
    package static func fixed(_ value: Double, _ decimals: Int) -> String {
        fixedPointText(value, places: decimals)
    }
}
