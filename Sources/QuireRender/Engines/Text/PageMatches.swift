/// What a search found on one page: each match as the boxes it covers (a match that runs onto
/// the next line has a box per line), in reading order; and whether the page has any text at
/// all (a scanned page has none: nothing on it can be found).
public struct PageMatches: Sendable, Hashable {
    public var matches: [[TextBox]]
    public var hasText: Bool

    public init(matches: [[TextBox]], hasText: Bool) {
        self.matches = matches
        self.hasText = hasText
    }
}
