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
    /// Rendered pages larger than this many pixels are scaled down to fit it (a huge MediaBox
    /// at natural size would otherwise ask for gigabytes). Default 50 MP (about 200 MB RGBA).
    public var maximumOutputPixels: Int

    public init(maximumImagePixels: Int = 128_000_000, maximumArchiveEntries: Int = 10_000,
                maximumInflatedEntrySize: Int = 64 << 20, maximumTextBytes: Int = 2 << 20,
                maximumSVGBytes: Int = 32 << 20, maximumOutputPixels: Int = 50_000_000) {
        self.maximumImagePixels = maximumImagePixels
        self.maximumArchiveEntries = maximumArchiveEntries
        self.maximumInflatedEntrySize = maximumInflatedEntrySize
        self.maximumTextBytes = maximumTextBytes
        self.maximumSVGBytes = maximumSVGBytes
        self.maximumOutputPixels = maximumOutputPixels
    }

    /// The defaults.
    public static let standard = RenderLimits()
}
