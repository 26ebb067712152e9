/// An option of an ``ArgumentForm``: its names (`-s`, `--size`), the value it takes, and
/// whether it may be given more than once.
package struct ArgumentOption: Sendable {
    /// Every name, the first being the one messages use (`-d`, `--destination`).
    package var names: [String]
    package var value: ArgumentValue
    /// Whether the option may be given more than once (each value is kept, in order); otherwise a
    /// second occurrence is a mismatch.
    package var repeatable: Bool
    /// Whether the value may be part of the option's word: `-s128` for a one-letter name,
    /// `--size=128` for a long one.
    package var attachedValue: Bool
    /// What the value is, for messages: "--timeout needs a number of seconds".
    package var needs: String

    package init(_ names: [String], value: ArgumentValue, repeatable: Bool = false, attachedValue: Bool = false,
                 needs: String = "a value") {
        precondition(!names.isEmpty && names.allSatisfy { $0.hasPrefix("-") && $0 != "-" && $0 != "--" })
        self.names = names
        self.value = value
        self.repeatable = repeatable
        self.attachedValue = attachedValue
        self.needs = needs
    }

    /// A flag: an option without a value.
    package static func flag(_ names: String..., repeatable: Bool = false) -> ArgumentOption {
        ArgumentOption(names, value: .none, repeatable: repeatable)
    }

    /// An option with a value.
    package static func option(_ names: String..., value: ArgumentValue = .text, repeatable: Bool = false,
                               attachedValue: Bool = false, needs: String = "a value") -> ArgumentOption {
        ArgumentOption(names, value: value, repeatable: repeatable, attachedValue: attachedValue, needs: needs)
    }
}
