internal import CQuireSystem

/// `value` as `printf("%.*f", places, value)` formats it (the C library rounds), through a
/// non-variadic C helper: Swift's `withVaList` boxes and dynamically casts each argument.
/// `places` is clamped to 0…17.
package func fixedPointText(_ value: Double, places: Int) -> String {
    let places = Int32(min(max(places, 0), 17))
    let count = Int(withUnsafeTemporaryAllocation(of: CChar.self, capacity: 1) { quire_format_fixed($0.baseAddress, 0, places, value) })
    guard count >= 0 else { return "\(value)" }
    return String(unsafeUninitializedCapacity: count + 1) { buffer in
        buffer.withMemoryRebound(to: CChar.self) { chars in
            Int(quire_format_fixed(chars.baseAddress, chars.count, places, value))
        }
    }
}
