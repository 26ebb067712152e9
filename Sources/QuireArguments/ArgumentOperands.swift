/// The operands of an ``ArgumentForm``: how many, and whether `--` ends its options.
///
/// Any other word is an operand as the bytes given, an empty one included (swift-argument-parser
/// takes `""` as an operand too, and `help` is a word only to the root command, never to a
/// subcommand's operands).
package struct ArgumentOperands: Sendable {
    /// What an operand is, for messages: "give at least one file".
    package var name: String
    package var count: ClosedRange<Int>
    /// Whether a `--` ends the options: the words after it are operands, whatever they look
    /// like. Otherwise `--` is an unknown option.
    package var terminator: Bool
    /// Every word after the command word is an operand as it is (no options, no `--`): a form
    /// whose words another parser reads.
    package var uninterpreted: Bool

    package init(name: String, count: ClosedRange<Int>, terminator: Bool = true, uninterpreted: Bool = false) {
        self.name = name
        self.count = count
        self.terminator = terminator
        self.uninterpreted = uninterpreted
    }

    /// No operands at all (and no `--`).
    package static let none = ArgumentOperands(name: "operand", count: 0...0, terminator: false)

    /// Every word after the command word, uninterpreted, for another parser.
    package static let uninterpreted = ArgumentOperands(name: "word", count: 0...Int.max, terminator: false, uninterpreted: true)
}
