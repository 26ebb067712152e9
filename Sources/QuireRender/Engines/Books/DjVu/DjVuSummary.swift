import QuireTypes

/// What `info` says of a DjVu document: its pages, and the first page's size and resolution.
public struct DjVuSummary: Sendable, Hashable, Codable {
    public var pages: Int
    /// The first page in points (1/72 inch).
    public var pageWidth: Double?
    public var pageHeight: Double?
    /// The first page's resolution, dots an inch.
    public var resolution: Int?

    /// - Throws: ``DocumentError`` `damaged` when DjVuLibre cannot read it, `unsupported` when
    ///   DjVuLibre is not installed.
    public static func read(_ file: InputFile, limits: RenderLimits = .standard) throws(DocumentError) -> DjVuSummary {
        let document = try DjVuDocument(file: file, limits: limits)
        let first = document.pageCount > 0 ? document.pageInfo(0) : nil
        let turned = (first?.rotation ?? 0) % 2 == 1
        return DjVuSummary(pages: document.pageCount,
                           pageWidth: first.map { Double(turned ? $0.height : $0.width) * 72 / Double($0.dpi) },
                           pageHeight: first.map { Double(turned ? $0.width : $0.height) * 72 / Double($0.dpi) },
                           resolution: first.map { Int($0.dpi) })
    }
}
