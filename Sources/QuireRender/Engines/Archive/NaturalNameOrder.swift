/// Natural order for entry names, as file managers sort: runs of digits compare by value
/// ("page2" before "page10"), other characters case-insensitively.
enum NaturalNameOrder {
    static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased().unicodeScalars), y = Array(b.lowercased().unicodeScalars)
        var i = 0, j = 0
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                let first = digitRun(x, &i), second = digitRun(y, &j)
                if first != second { return first < second }
                continue
            }
            if x[i] != y[j] { return x[i].value < y[j].value }
            i += 1
            j += 1
        }
        if (x.count - i) != (y.count - j) { return (x.count - i) < (y.count - j) }
        return a < b   // equal ignoring case and leading zeros: any fixed order
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && ("0"..."9").contains(scalar)
    }

    /// The ASCII digit run at `index` without leading zeros, advancing `index` past it.
    private static func digitRun(_ scalars: [Unicode.Scalar], _ index: inout Int) -> DigitRun {
        var digits: [UInt8] = []
        while index < scalars.count, isDigit(scalars[index]) {
            if !(digits.isEmpty && scalars[index] == "0") { digits.append(UInt8(scalars[index].value)) }
            index += 1
        }
        return DigitRun(digits: digits)
    }

    private struct DigitRun: Comparable {
        let digits: [UInt8]
        static func < (a: DigitRun, b: DigitRun) -> Bool {
            a.digits.count != b.digits.count ? a.digits.count < b.digits.count
                : a.digits.lexicographicallyPrecedes(b.digits)
        }
    }
}
