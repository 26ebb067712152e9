/// One way of putting pages on sheets that a person picks from a short list (orientation,
/// scaling, pages per side, their order and border, booklet, which sides, reverse order),
/// declared once in ``SheetOptions/choices``: its `lp -o` spelling, its values in the order they
/// are offered (the default first) and how people name them, when it applies, and whether a
/// printer remembers it. Everything that reads or shows a print choice is built from these
/// declarations: `quire print -o`, lpoptions, the worker's wire, the window's print sheet and
/// the terminal's print form. Paper is not one of them: its choices are the printer's.
public struct SheetChoice: Sendable, Hashable, Identifiable {
    /// One value of a choice.
    public struct Value: Sendable, Hashable {
        /// Its `lp -o` value ("lrtb", "4", "true").
        public let word: String
        /// How people read it ("Left to right, top to bottom").
        public let shown: String
        /// Other values `lp -o` accepts for it ("landscape" beside "4").
        public let alsoSpelled: [String]
        /// The `lp -o` name it is written under when that is not the choice's own (a percentage
        /// is `scaling=50`, not `print-scaling`).
        public let option: String?

        public init(_ word: String, _ shown: String, alsoSpelled: [String] = [], option: String? = nil) {
            self.word = word
            self.shown = shown
            self.alsoSpelled = alsoSpelled
            self.option = option
        }
    }

    /// The `lp -o` name ("number-up-layout"): the choice's identity.
    public let name: String
    /// Its name in a window, with GTK's mnemonic underscore ("Page _order").
    public let mnemonicLabel: String
    /// Its name in a narrow terminal column ("Order").
    public let shortLabel: String
    /// The values offered, the default first.
    public let values: [Value]
    /// Whether it is a yes/no switch (a check button in a window): ``values`` are no, then yes.
    public let isSwitch: Bool
    /// Whether "Remember for this printer" keeps it (lpoptions).
    public let remembered: Bool
    /// Whether a value other than the default changes the sheets when nothing else does (the
    /// order of pages on a side changes nothing with one page per side).
    public let composesAlone: Bool
    /// What a wrong value is told it expects ("1, 2, 4, 6, 9 or 16").
    public let expected: String
    /// The value `options` holds: its word and name (how it is shown comes from ``values``).
    let read: @Sendable (SheetOptions) -> Value
    let write: @Sendable (inout SheetOptions, Value) -> Void
    let applies: @Sendable (SheetOptions) -> Bool

    public init(name: String, label mnemonicLabel: String, short shortLabel: String, values: [Value], isSwitch: Bool = false,
                remembered: Bool = false, composesAlone: Bool = true, expected: String? = nil,
                appliesWhen applies: @escaping @Sendable (SheetOptions) -> Bool = { _ in true },
                read: @escaping @Sendable (SheetOptions) -> Value, write: @escaping @Sendable (inout SheetOptions, Value) -> Void) {
        precondition(!values.isEmpty && (!isSwitch || values.count == 2))
        self.name = name
        self.mnemonicLabel = mnemonicLabel
        self.shortLabel = shortLabel
        self.values = values
        self.isSwitch = isSwitch
        self.remembered = remembered
        self.composesAlone = composesAlone
        let words = values.filter { $0.option == nil }.map(\.word)
        self.expected = expected ?? (words.count > 2
            ? words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
            : words.joined(separator: " or "))
        self.applies = applies
        self.read = read
        self.write = write
    }

    public var id: String { name }

    /// Its name in a window and for accessibility, without the mnemonic ("Page order"); for a
    /// switch, up to its explanation in brackets ("Booklet").
    public var label: String {
        let plain = mnemonicLabel.replacingUnderscores()
        guard isSwitch, let bracket = plain.firstIndex(of: "(") else { return plain }
        return String(plain[..<bracket]).trimmingTrailingSpaces()
    }

    /// The value `options` holds (one of ``values``, or the one it spells outside them, such as
    /// a scaling of 37 %).
    public func value(in options: SheetOptions) -> Value {
        let value = read(options)
        return values.first { $0.word == value.word && $0.option == value.option } ?? value
    }

    /// Where ``value(in:)`` is among ``values``, if it is.
    public func index(in options: SheetOptions) -> Int? {
        let value = read(options)
        return values.firstIndex { $0.word == value.word && $0.option == value.option }
    }

    /// Sets `options` to ``values``[`index`].
    public func choose(_ index: Int, in options: inout SheetOptions) {
        guard values.indices.contains(index) else { return }
        write(&options, values[index])
    }

    /// Moves `options` to the next (`step` 1) or previous (-1) value, round the list.
    public func cycle(_ options: inout SheetOptions, step: Int) {
        let index = self.index(in: options) ?? 0
        choose(((index + step) % values.count + values.count) % values.count, in: &options)
    }

    /// Whether it means anything with the other choices as they are (the order of pages on a
    /// side needs several pages per side).
    public func applies(to options: SheetOptions) -> Bool { applies(options) }

    /// Whether `options` holds the default.
    public func isDefault(in options: SheetOptions) -> Bool { index(in: options) == 0 }

    /// Reads `word` given under the choice's own name; nil when it is not one of its values.
    func parse(_ word: String) -> Value? {
        let lowered = word.lowercased()
        return values.first { $0.option == nil && ($0.word == lowered || $0.alsoSpelled.contains(lowered)) }
    }

    /// The `lp -o` word for the value `options` holds.
    func word(in options: SheetOptions) -> (String, String) {
        let value = read(options)
        return (value.option ?? name, value.word)
    }

    public static func == (lhs: SheetChoice, rhs: SheetChoice) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension String {
    fileprivate func replacingUnderscores() -> String { String(filter { $0 != "_" }) }
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
