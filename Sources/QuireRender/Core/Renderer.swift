#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CCairo
import QuireSystem
import QuireTypes

/// Renders any document family Quire supports: PDF, PostScript/EPS, SVG, raster images, text,
/// and containers that carry a preview image (OpenDocument, OOXML, iWork, EPUB, CBZ). The
/// engine is chosen from ``ContentType/family`` in ``RenderEngine/table``.
///
/// ```swift
/// let file = try InputFile(path: DocumentPath("report.pdf"))
/// let renderer = try Renderer(file: file, contentType: try ContentType.detect(file))
/// let image = try renderer.render(page: 0, size: .longestSide(256))
/// let png = try PNGEncoder.encode(image)
/// ```
///
/// A renderer holds C library state that is not thread-safe, so it is not `Sendable`: create
/// it, use it and release it in one task (``Document``'s async functions do exactly that, on a
/// thread of their own).
public final class Renderer {
    /// The type the renderer was chosen for.
    public let contentType: ContentType
    /// The document's path (for messages).
    public var path: DocumentPath { source.path }
    /// For containers: the entry the preview image came from.
    public let embeddedPreviewName: String?
    /// What the engine knows beyond the pages, for the card (``CardRow``).
    public var details: [CardRow] {
        if let text = firstLinesOnly?.completeText { return MarkdownText.details(text) }
        return openedDetails
    }
    private let openedDetails: [CardRow]
    /// The title and author the engine read (tags of a song); PDFs give theirs in ``pdfInfo``.
    public var title: String? {
        // A Markdown file's first heading: among the first lines, or else further on.
        if let partial = firstLinesOnly { return partial.markdown.title ?? partial.completeText.title }
        return openedTitle
    }
    private let openedTitle: String?
    public let author: String?
    /// An archive's file entries that can be opened (``ArchiveListing/contents(of:in:limit:)``).
    public let entries: [ArchiveEntryFact]
    /// The document as lines of text, for viewers that show text as text (``RenderEngine/Opened/viewText``).
    public var viewText: [String]? { firstLinesOnly.map { $0.completeText.lines.map(\.text) } ?? openedViewText }
    private let openedViewText: [String]?
    /// For JSON: the outline of ``viewText`` (its lines' depths, path labels and folds).
    public let outline: JSONOutline?
    /// For Markdown: the styled lines of ``viewText``.
    public var markdown: MarkdownText? { firstLinesOnly?.completeText ?? openedMarkdown }
    private let openedMarkdown: MarkdownText?
    /// A Markdown file opened for its pages, whose lines were made only for the first of them:
    /// the facts that need every line make the rest when asked for.
    private var firstLinesOnly: MarkdownSource? {
        guard openedMarkdown == nil, let markdown = source as? MarkdownSource else { return nil }
        return markdown
    }
    /// For Markdown, notebooks and books shown as rendered text: their pictures (each line's
    /// index with its pixels), fitted to `box` and within `budget` bytes of pixels in all.
    public func markdownPictures(fitting box: (width: Int, height: Int), budget: Int) -> [(line: Int, image: RenderedImage)] {
        guard let markdown else { return [] }
        return MarkdownSource.pictures(of: markdown, fitting: box, budget: budget, path: path, limits: limits)
    }
    private(set) var source: any PageSource
    private let textTruncated: Bool
    private let limits: RenderLimits

    /// Opens the document for rendering.
    /// - Parameters:
    ///   - password: for encrypted PDFs.
    ///   - textByteLimit: lay out at most this many bytes of a text file (thumbnails need only
    ///     the first page); defaults to `limits.maximumTextBytes`.
    /// - Throws: ``DocumentError``: `unsupported` for families Quire cannot render, `damaged`,
    ///   `passwordRequired` or `limitExceeded` from the family's renderer.
    ///   - preferEmbeddedPreview: for thumbnails: an office file's own preview image, when it
    ///     carries one, instead of its first page laid out by LibreOffice.
    ///   - firstPageFirst: for viewers: where the engine can (office documents), open with page 1
    ///     ready and the rest to follow (``isProvisional``, ``complete()``).
    ///   - firstPageOnly: only page 1 will be drawn (thumbnails, a preview of page 1): an office
    ///     document's page 1 comes from LibreOffice's layout (a spreadsheet's from an export of
    ///     page 1 alone), never from an export of every page; ``pageCountIsKnown`` may be false.
    ///   - csvAsSpreadsheet: a CSV or TSV file (``SpreadsheetText``) is laid out by LibreOffice
    ///     Calc (its printed pages) instead of as text.
    ///   - developRaw: a camera RAW file's sensor data developed at full size (slow) instead of
    ///     the preview the camera embedded; other types ignore it.
    public init(file: InputFile, contentType: ContentType, password: String? = nil,
                limits: RenderLimits = .standard, textByteLimit: Int? = nil,
                preferEmbeddedPreview: Bool = false, firstPageFirst: Bool = false, firstPageOnly: Bool = false,
                csvAsSpreadsheet: Bool = false, developRaw: Bool = false, interpreters: Interpreters = .here) throws(DocumentError) {
        // DjVu pages are drawn by DjVuLibre itself (``PageSource/pixels(page:width:height:)``):
        // cairo and its sixteen libraries are loaded only when such a page goes into a larger
        // picture (``CairoImage``, ``writeVector(kind:pages:sink:)`` ask for it then).
        if contentType.family != .djvu { try LazyLibraries.requireCairo(file.path) }
        self.contentType = contentType
        switch contentType.family {
        case .empty:
            throw DocumentError(kind: .unsupported, path: file.path, reason: "the file is empty")
        default:
            break
        }
        let asSpreadsheet = csvAsSpreadsheet && SpreadsheetText.applies(to: contentType)
        guard let engine = asSpreadsheet ? RenderEngine.office : RenderEngine.engine(for: contentType, path: file.path) else {
            throw DocumentError(kind: .unsupported, path: file.path,
                                reason: "this file type cannot be previewed (\(contentType.localizedDescription))")
        }
        let input = RenderEngine.Input(file: file, contentType: contentType, password: password, limits: limits,
                                       textByteLimit: min(textByteLimit ?? limits.maximumTextBytes, limits.maximumTextBytes),
                                       preferEmbeddedPreview: preferEmbeddedPreview, firstPageFirst: firstPageFirst,
                                       firstPageOnly: firstPageOnly, csvAsSpreadsheet: asSpreadsheet,
                                       developRaw: developRaw && !preferEmbeddedPreview, interpreters: interpreters)
        let opened = try engine.open(input)
        source = opened.source
        let previewName = opened.embeddedPreviewName
        let truncated = opened.isTruncated
        embeddedPreviewName = previewName
        openedDetails = opened.details
        openedTitle = opened.title
        author = opened.author
        entries = opened.entries
        openedViewText = opened.viewText
        outline = opened.outline
        openedMarkdown = opened.markdown
        textTruncated = truncated
        pageCountIsKnown = opened.pageCountIsKnown
        animation = opened.animation
        contents = opened.contents
        self.limits = limits
    }

    /// False when only page 1 was made and the document's page count is not known (opened with
    /// `firstPageOnly`: a spreadsheet's page 1 exported alone); ``pageCount`` then counts the
    /// pages that can be drawn.
    public let pageCountIsKnown: Bool

    /// An animated image's frames, length and loops (GIF, APNG, WebP); nil for anything else.
    public let animation: AnimationInfo?

    /// A book's table of contents (EPUB), each entry placed at a line of ``markdown``; empty
    /// for anything else.
    public let contents: TableOfContents

    /// A PDF's metadata, read from the document this renderer has open; nil for other families.
    public var pdfInfo: PDFInfo? { (source as? PDFPageSource)?.document.info }

    /// For a PDF: whether its permissions let annotations be added (a viewer's Markup); nil for
    /// other families.
    public var pdfAllowsAnnotating: Bool? { (source as? PDFPageSource)?.document.allowsAnnotating }

    /// Whether only page 1 can be drawn yet (opened with `firstPageFirst`): the page count and
    /// sizes are the engine's layout, and ``complete()`` does the rest.
    public var isProvisional: Bool { source is any ProvisionalPageSource }

    /// Finishes a provisional document: every page as it prints, with its title and author.
    /// Nothing to do for any other.
    public func complete() throws(DocumentError) {
        guard let provisional = source as? any ProvisionalPageSource else { return }
        source = try provisional.complete().source
    }

    /// Number of pages (1 for images, SVG and embedded previews). A Markdown file is laid out
    /// whole the first time this is asked; ``hasPage(_:)`` lays out no further than the page.
    public var pageCount: Int { source.pageCount }

    /// Whether page `index` (0-based) exists, without laying out the pages after it.
    public func hasPage(_ index: Int) -> Bool { source.hasPage(index) }

    /// Size of page `index` in points (for raster images: pixels, upright).
    public func pageSize(at index: Int) -> PageSize { source.pageSize(at: index) }

    /// Whether the content is a raster with its own pixel size (images, embedded previews).
    public var isRaster: Bool { source.isRaster }

    /// What a thumbnail of this file says about its original (`Thumb::Image::Width/Height` or
    /// `Thumb::Document::Pages`), for a file of `family`: an image's pixel size, a document's
    /// page count (an office document's only when LibreOffice laid it out, not for an embedded
    /// preview image). The one-file thumbnail and the batch workers' both ask here.
    package func thumbnailFacts(family: DocumentFamily) -> (imageWidth: Int?, imageHeight: Int?, pageCount: Int?) {
        switch family {
        case .image, .svg:
            let page = pageSize(at: 0)
            return (Int(page.width.rounded()), Int(page.height.rounded()), nil)
        case .pdf, .postscript:
            return (nil, nil, pageCount)
        case .officeDocument where !isRaster:
            return (nil, nil, pageCountIsKnown ? pageCount : nil)
        default:
            return (nil, nil, nil)
        }
    }

    /// Whether a text file was cut at the byte limit before layout.
    public var isTruncated: Bool { textTruncated }

    /// Pixel size `render(page:size:allowUpscaling:)` will produce.
    /// Pages over ``RenderLimits/maximumOutputPixels`` are scaled down to fit it.
    public func pixelSize(page index: Int = 0, size: RenderSize, allowUpscaling: Bool = true) -> (width: Int, height: Int) {
        Self.pixelSize(for: source.pageSize(at: index), isRaster: source.isRaster, size: size, allowUpscaling: allowUpscaling,
                       maximumPixels: limits.maximumOutputPixels)
    }

    /// The pixel size a page of `pageSize` gets at `size`: the rule ``pixelSize(page:size:allowUpscaling:)``
    /// applies, for a caller that knows the page's size but has no renderer (a viewer laying
    /// out pages the render worker will draw).
    public static func pixelSize(for pageSize: PageSize, isRaster: Bool, size: RenderSize, allowUpscaling: Bool,
                                 maximumPixels: Int) -> (width: Int, height: Int) {
        let (width, height) = size.pixels(for: pageSize, isRaster: isRaster, upscale: allowUpscaling)
        let pixels = Double(width) * Double(height)
        guard pixels > Double(maximumPixels) else { return (width, height) }
        let shrink = (Double(maximumPixels) / pixels).squareRoot()
        return (max(1, Int(Double(width) * shrink)), max(1, Int(Double(height) * shrink)))
    }

    /// Renders page `index` (0-based) straight at the target size. Paper pages (PDF, PS, text)
    /// are opaque white under the content; images and SVG keep their transparency.
    /// - Parameter allowUpscaling: when false, raster images are not enlarged past their size.
    public func render(page index: Int = 0, size: RenderSize = .natural,
                       allowUpscaling: Bool = true) throws(DocumentError) -> RenderedImage {
        try checkPage(index)
        let (width, height) = pixelSize(page: index, size: size, allowUpscaling: allowUpscaling)
        if let pixels = try source.pixels(page: index, width: width, height: height) { return pixels }
        return try source.raster(page: index, width: width, height: height).rendered()
    }

    /// The document's thumbnail, `longestSide` pixels on its longest side: page 1, not
    /// enlarged past a raster's own size — or what the family draws as its thumbnail instead
    /// (a font's "Aa").
    public func renderThumbnail(longestSide: Int) throws(DocumentError) -> RenderedImage {
        if let drawn = try source.thumbnail(longestSide: longestSide) { return drawn.rendered() }
        return try render(page: 0, size: .longestSide(longestSide), allowUpscaling: false)
    }

    /// The text of page `index` in reading order (for find and copy); nil when the engine has
    /// no text for its pages (images).
    public func text(page index: Int) throws(DocumentError) -> String? {
        try checkPage(index)
        return try source.text(page: index)
    }

    /// Where `query` occurs on page `index`: literal text (regex characters are text),
    /// ignoring case and, for PDF, accents; nil when the engine has no text for its pages.
    public func find(_ query: String, page index: Int) throws(DocumentError) -> PageMatches? {
        try checkPage(index)
        return try source.find(query, page: index)
    }

    /// Page `index`'s text with one box per character (for selecting and copying); nil when
    /// the engine has no text for its pages.
    public func textLayout(page index: Int) throws(DocumentError) -> PageTextLayout? {
        try checkPage(index)
        return try source.textLayout(page: index)
    }

    /// Page `index`'s form widgets (a PDF's; none for other families), for a viewer to fill in place.
    public func formWidgets(page index: Int) throws(DocumentError) -> [FormWidget] {
        try checkPage(index)
        guard let pdf = source as? PDFPageSource, let original = pdf.pdfFile else { return [] }
        return PDFForm(pdf.document, file: original.file, password: original.password, pages: index..<index + 1).widgets
    }

    /// Whether the document's form is XFA only (no AcroForm fields, an XFA packet): not
    /// something Quire can fill. False for anything but a PDF.
    public func formIsXFAOnly() -> Bool {
        guard let pdf = source as? PDFPageSource, let original = pdf.pdfFile, PDFForm.hasXFA(original.file) else { return false }
        return PDFForm(pdf.document).fields.isEmpty
    }

    /// Page `index`'s annotations (a PDF's; none for other families), for Markup to select.
    public func annotations(page index: Int) throws(DocumentError) -> [ExistingAnnotation] {
        try checkPage(index)
        return (source as? PDFPageSource)?.document.existingAnnotations(page: index) ?? []
    }

    /// Whether the document's permissions let its text be copied out (false only for a PDF
    /// that forbids it).
    public var allowsCopyingText: Bool { (source as? PDFPageSource)?.allowsCopying ?? true }

    /// Internal: the page as a cairo surface (for composition, e.g. contact sheets).
    func surface(page index: Int, width: Int, height: Int) throws(DocumentError) -> CairoImage {
        try checkPage(index)
        return try source.raster(page: index, width: width, height: height)
    }

    func checkPage(_ index: Int) throws(DocumentError) {
        guard source.hasPage(index) else {
            throw DocumentError(kind: .limitExceeded, path: path,
                                reason: "there is no page \(index + 1) (the document has \(pageCount) page\(pageCount == 1 ? "" : "s"))")
        }
    }

    /// The pages as a PDF document (each page at its own size; text on A4), vector where the
    /// source is vector. `pages` are 0-based; nil means all.
    public func pdfData(pages: [Int]? = nil) throws(DocumentError) -> [UInt8] {
        let sink = ByteSink()
        try writeVector(kind: .pdf, pages: pages ?? Array(0..<pageCount), sink: sink)
        return sink.bytes
    }

    /// Page `index` as an SVG document.
    public func svgData(page index: Int = 0) throws(DocumentError) -> [UInt8] {
        let sink = ByteSink()
        try writeVector(kind: .svg, pages: [index], sink: sink)
        return sink.bytes
    }

    /// Writes the PDF to a file descriptor as it is produced (the descriptor is not closed).
    public func writePDF(pages: [Int]? = nil, to descriptor: FileDescriptor) throws(DocumentError) {
        let sink = ByteSink(descriptor: descriptor)
        try writeVector(kind: .pdf, pages: pages ?? Array(0..<pageCount), sink: sink)
        if let error = sink.error {
            throw DocumentError(kind: .input, path: path, reason: "cannot write the PDF: \(error)")
        }
    }

    enum VectorKind { case pdf, svg }

    private func writeVector(kind: VectorKind, pages: [Int], sink: ByteSink) throws(DocumentError) {
        for page in pages { try checkPage(page) }
        try LazyLibraries.requireCairo(source.path)
        guard let first = pages.first else { return }
        let firstSize = source.pageSize(at: first)
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        let write: cairo_write_func_t = { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
            return sink.append(UnsafeRawBufferPointer(start: data, count: Int(length))) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
        }
        let surface: OpaquePointer
        switch kind {
        case .pdf:
            surface = libcairo.cairo_pdf_surface_create_for_stream(write, closure, firstSize.width, firstSize.height)!
            libcairo.cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Quire")
        case .svg:
            surface = libcairo.cairo_svg_surface_create_for_stream(write, closure, firstSize.width, firstSize.height)!
        }
        defer { libcairo.cairo_surface_destroy(surface) }
        let cr = libcairo.cairo_create(surface)!
        defer { libcairo.cairo_destroy(cr) }
        for page in pages {
            let size = source.pageSize(at: page)
            if kind == .pdf { libcairo.cairo_pdf_surface_set_size(surface, size.width, size.height) }
            libcairo.cairo_save(cr)
            if source.isPaper && kind == .svg {
                libcairo.cairo_set_source_rgb(cr, 1, 1, 1)
                libcairo.cairo_paint(cr)
            }
            try source.draw(page: page, in: cr, forPrinting: kind == .pdf)
            libcairo.cairo_restore(cr)
            libcairo.cairo_show_page(cr)
        }
        libcairo.cairo_surface_finish(surface)
        if let error = CairoError.check(libcairo.cairo_status(cr)) ?? CairoError.check(libcairo.cairo_surface_status(surface)) {
            throw DocumentError(kind: .damaged, path: path, reason: "cannot produce \(kind == .pdf ? "PDF" : "SVG") (\(error.message))", cairo: error)
        }
    }
}

/// Collects bytes in memory or writes them through to a descriptor.
final class ByteSink {
    private(set) var bytes: [UInt8] = []
    let descriptor: FileDescriptor?
    private(set) var error: Errno?

    init(descriptor: FileDescriptor? = nil) { self.descriptor = descriptor }

    func append(_ raw: UnsafeRawBufferPointer) -> Bool {
        guard let descriptor else {
            bytes.append(contentsOf: raw)
            return true
        }
        do { try descriptor.writeAll(raw) } catch {
            self.error = error
            return false
        }
        return true
    }
}

import FoundationEssentials
