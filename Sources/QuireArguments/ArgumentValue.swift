/// The kind of value an ``ArgumentOption`` takes, and so which words are such a value.
package enum ArgumentValue: Sendable {
    /// None: the option is a flag.
    case none
    /// A word that is not empty, does not start with `-` and is valid UTF-8: what
    /// swift-argument-parser reads as an option's value and hands over as the same `String`.
    case text
    /// Decimal digits only (no sign, no spaces), a number within the range.
    case integer(ClosedRange<Int>)
    /// A number as `Double(String)` reads it, at least `minimum`.
    case number(minimum: Double)
    /// The next word, whatever it is: empty, starting with `-`, or not UTF-8.
    case anyWord

    /// Whether `word` is such a value.
    package func accepts(_ word: [UInt8]) -> Bool {
        switch self {
        case .none:
            return word.isEmpty
        case .text:
            return !word.isEmpty && word.first != UInt8(ascii: "-") && String(validating: word, as: UTF8.self) != nil
        case .integer(let range):
            return Self.integer(word).map(range.contains) ?? false
        case .number(let minimum):
            return Self.number(word).map { $0 >= minimum } ?? false
        case .anyWord:
            return true
        }
    }

    /// Decimal digits as a number; nil for anything else or on overflow.
    package static func integer(_ word: [UInt8]) -> Int? {
        guard !word.isEmpty else { return nil }
        var value = 0
        for byte in word {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return value
    }

    /// The word as `Double(String)` reads it (its bytes decoded as UTF-8).
    package static func number(_ word: [UInt8]) -> Double? {
        Double(String(decoding: word, as: UTF8.self))
    }
}
