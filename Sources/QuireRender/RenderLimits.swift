/// Limits that protect rendering from hostile or absurd input.
public struct RenderLimits: Sendable, Hashable {
    /// Images whose header declares more pixels are refused before decoding (default 128 MP).
    public var maximumImagePixels: Int
    /// Containers (zip) with more entries are refused.
    public var maximumArchiveEntries: Int
    /// An embedded preview or cover larger than this once inflated is refused (zip bombs).
    public var maximumInflatedEntrySize: Int
    /// Text beyond this many bytes is not laid out (default 2 MiB, about 500 pages; laying out
    /// takes about a second per MiB). ``Renderer/isTruncated`` tells when text was cut.
    public var maximumTextBytes: Int
    /// SVG files larger than this are refused.
    public var maximumSVGBytes: Int

    public init(maximumImagePixels: Int = 128_000_000, maximumArchiveEntries: Int = 10_000,
                maximumInflatedEntrySize: Int = 64 << 20, maximumTextBytes: Int = 2 << 20,
                maximumSVGBytes: Int = 32 << 20) {
        self.maximumImagePixels = maximumImagePixels
        self.maximumArchiveEntries = maximumArchiveEntries
        self.maximumInflatedEntrySize = maximumInflatedEntrySize
        self.maximumTextBytes = maximumTextBytes
        self.maximumSVGBytes = maximumSVGBytes
    }

    /// The defaults.
    public static let standard = RenderLimits()
}
