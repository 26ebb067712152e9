import QuireTypes

/// Limits that protect rendering from hostile or absurd input. The command-line options and
/// environment variables that set them are named by ``Limit``.
public struct RenderLimits: Sendable, Hashable {
    /// Images whose header declares more pixels are refused before decoding (default 100 MP;
    /// ``Limit/pixels``).
    public var maximumImagePixels: Int
    /// Containers (zip) with more entries are refused (default 10 000; ``Limit/entries``).
    public var maximumArchiveEntries: Int
    /// At most this many bytes are inflated from one container, all entries read together
    /// (default 64 MiB; zip bombs; ``Limit/inflatedSize``).
    public var maximumInflatedBytes: Int
    /// At most this many pages are rendered for one request (default 500; ``Limit/pages``).
    public var maximumPages: Int
    /// Text beyond this many bytes is not laid out (default 2 MiB, about 500 pages; laying out
    /// takes about a second per MiB). ``Renderer/isTruncated`` tells when text was cut.
    public var maximumTextBytes: Int
    /// SVG files larger than this are refused.
    public var maximumSVGBytes: Int
    /// Rendered pages larger than this many pixels are scaled down to fit it (a huge MediaBox
    /// at natural size would otherwise ask for gigabytes). Default 50 MP (about 200 MB RGBA).
    public var maximumOutputPixels: Int

    public init(maximumImagePixels: Int = 100_000_000, maximumArchiveEntries: Int = 10_000,
                maximumInflatedBytes: Int = 64 << 20, maximumPages: Int = 500, maximumTextBytes: Int = 2 << 20,
                maximumSVGBytes: Int = 32 << 20, maximumOutputPixels: Int = 50_000_000) {
        self.maximumImagePixels = maximumImagePixels
        self.maximumArchiveEntries = maximumArchiveEntries
        self.maximumInflatedBytes = maximumInflatedBytes
        self.maximumPages = maximumPages
        self.maximumTextBytes = maximumTextBytes
        self.maximumSVGBytes = maximumSVGBytes
        self.maximumOutputPixels = maximumOutputPixels
    }

    /// The defaults.
    public static let standard = RenderLimits()

    /// Throws ``DocumentError/Kind/limitExceeded`` when `count` pages are more than
    /// ``maximumPages``.
    public func checkPageCount(_ count: Int, path: DocumentPath?) throws(DocumentError) {
        guard count > maximumPages else { return }
        throw DocumentError(kind: .limitExceeded, path: path,
                            reason: "\(count) pages selected, " + Limit.pages.exceeded(maximumPages, "pages per request"),
                            remedy: .raise(.pages))
    }
}

extension RenderLimits {
    /// The refusal of a picture of `width`×`height` pixels past ``maximumImagePixels``, before
    /// anything of it is decoded; `what` names it ("image", "page 3", "the sensor data").
    func pixelRefusal(_ width: Int, _ height: Int, of what: String = "image", path: DocumentPath?) -> DocumentError {
        DocumentError(kind: .limitExceeded, path: path,
                      reason: "\(what) is \(width)×\(height) pixels, refused before decoding: "
                          + Limit.pixels.exceeded(maximumImagePixels, "pixels"),
                      remedy: .raise(.pixels))
    }

    /// Throws ``pixelRefusal(_:_:of:path:)`` when `width`×`height` is past the limit (or overflows).
    func checkPixels(_ width: Int, _ height: Int, of what: String = "image", path: DocumentPath?) throws(DocumentError) {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || product > maximumImagePixels { throw pixelRefusal(width, height, of: what, path: path) }
    }
}
