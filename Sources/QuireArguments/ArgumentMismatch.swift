/// Why a command line does not fit an ``ArgumentForm``: the first word that did not. For
/// `quire`'s short paths any mismatch means "let swift-argument-parser read it"; `quire-look`
/// reports ``description`` as its error.
package enum ArgumentMismatch: Error, Equatable, Sendable, CustomStringConvertible {
    /// The command word is another form's.
    case otherCommand
    /// A word starting with `-` that names none of the form's options.
    case unknownOption([UInt8])
    /// An option without the value it takes (the command line ended).
    case missingValue(option: String, needs: String)
    /// An option's value that is not of its kind.
    case invalidValue(option: String, value: [UInt8], needs: String)
    /// An option given again that may be given once.
    case repeated(option: String)
    /// Too few or too many operands.
    case operandCount(given: Int, expected: ClosedRange<Int>, name: String)

    package var description: String {
        switch self {
        case .otherCommand:
            return "another command"
        case .unknownOption(let word):
            return "unknown option \(String(decoding: word, as: UTF8.self))"
        case .missingValue(let option, let needs), .invalidValue(let option, _, let needs):
            return "\(option) needs \(needs)"
        case .repeated(let option):
            return "\(option) is given more than once"
        case .operandCount(let given, let expected, let name):
            if given < expected.lowerBound {
                return expected.lowerBound == 1 ? "give at least one \(name)" : "give \(expected.lowerBound) \(name)s"
            }
            return expected.upperBound == 0 ? "no \(name)s are taken" : "give at most \(expected.upperBound) \(name)s"
        }
    }
}
