/// Whitespace trimming without Foundation (see ``Lock`` for why Quire avoids it).
extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Unicode white space other than line
    /// breaks), as Foundation's `trimmingCharacters(in: .whitespaces)`.
    // Inlinable, so callers in other modules get it specialised for String or Substring: run
    // generically, its first call instantiated `SubSequence` metadata through the runtime's
    // associated-type look-ups (~0.4 M instructions of each `quire info`).
    @inlinable package func trimmingWhitespace() -> String {
        trimming { $0.isWhitespace && !$0.isNewline }
    }

    /// Without leading and trailing white space and line breaks, as Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`.
    @inlinable package func trimmingWhitespaceAndNewlines() -> String {
        trimming { $0.isWhitespace }
    }

    @inlinable package func trimming(_ isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = lastIndex(where: { !isTrimmed($0) })!
        return String(self[first...last])
    }
}
