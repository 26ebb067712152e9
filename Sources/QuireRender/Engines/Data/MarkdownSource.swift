internal import CCairo
internal import CPangoCairo
import QuireTypes

/// A Markdown file rendered on A4 pages with Pango: headings in bold sans at sizes by level,
/// paragraphs and list items in sans wrapped to the text width, emphasis, strikethrough and
/// links marked, code blocks and tables (box rules) in monospace, code on a grey ground. The
/// lines are ``MarkdownText``'s, the same the terminal shows.
final class MarkdownSource: PageSource {
    let path: DocumentPath
    /// The lines laid out: the first lines only while ``rest`` is there.
    private(set) var markdown: MarkdownText
    /// Makes every line (the whole file's), when only the first were made (`preview` of page 1:
    /// the rest are made when a later page, or the count, is asked for).
    private var rest: (() throws(DocumentError) -> MarkdownText)?
    private let pango: quire_pangocairo_api
    private let limits: RenderLimits
    /// Each page's lines laid out so far: their indices and where each starts (points from the top).
    private var pages: [[(line: Int, y: Double)]] = []
    /// Where pagination goes on: pages are laid out only as far as they are asked for (page 1
    /// of a 1 MB file costs one page of layout); ``pageCount`` lays out the rest.
    private var paging = Paging()
    private let maximumPages: Int

    private struct Paging {
        /// The next line to place, the page being filled and how far down it is.
        var line = 0
        var page: [(line: Int, y: Double)] = []
        var y = TextSource.margin
        var isDone = false
    }

    static let width = TextSource.page.width - 2 * TextSource.margin

    /// Every page: the whole file is laid out the first time this is asked.
    var pageCount: Int {
        try? paginate(through: Int.max)
        return max(1, pages.count)
    }
    var isPaper: Bool { true }

    /// Every line of the file (made now if only the first were).
    var completeText: MarkdownText {
        if let rest, let whole = try? rest() {
            markdown = whole
        }
        rest = nil
        return markdown
    }

    /// Pages laid out so far (tests: page 1 alone costs one page), and whether that is all.
    var laidOut: (pages: Int, isAll: Bool) { (pages.count, paging.isDone) }

    /// Whether the thumbnail is the first picture (a notebook's first image output, a book's
    /// cover) rather than page 1 (Markdown, whose pictures are part of its page).
    private let thumbnailIsFirstPicture: Bool

    init(path: DocumentPath, markdown: MarkdownText, maximumPages: Int, limits: RenderLimits = .standard,
         thumbnailIsFirstPicture: Bool = true,
         rest: (() throws(DocumentError) -> MarkdownText)? = nil) throws(DocumentError) {
        self.path = path
        self.thumbnailIsFirstPicture = thumbnailIsFirstPicture
        self.markdown = markdown
        self.rest = rest
        self.limits = limits
        self.maximumPages = max(1, maximumPages)
        pango = try LazyLibraries.pango(path)
        // Page 1 now (its errors are the file's); the rest when asked.
        try paginate(through: 0)
    }

    func hasPage(_ index: Int) -> Bool {
        guard index >= 0 else { return false }
        try? paginate(through: index)
        return index < max(1, pages.count)
    }

    func pageSize(at index: Int) -> PageSize { TextSource.page }

    /// The font of a kind of line.
    static func font(_ line: MarkdownText.Line) -> String {
        switch line.kind {
        case .heading:
            let size = [0, 20, 16, 13.5, 12, 11, 10][min(6, max(1, line.level))]
            return "Sans Bold \(size)"
        case .code, .table, .html, .rule: return "Monospace 8.5"
        case .body, .blank, .image: return "Sans 10"
        }
    }

    /// The line as Pango markup: its runs as spans, everything else escaped.
    static func markup(_ line: MarkdownText.Line) -> String {
        var out = ""
        for (index, scalar) in line.text.unicodeScalars.enumerated() {
            for run in line.runs where run.start == index {
                var attributes = ""
                if run.style.contains(.bold) { attributes += " weight=\"bold\"" }
                if run.style.contains(.italic) { attributes += " style=\"italic\"" }
                if run.style.contains(.code) { attributes += " font_family=\"Monospace\" background=\"#EEEEEE\"" }
                if run.style.contains(.strike) { attributes += " strikethrough=\"true\"" }
                if run.style.contains(.link) { attributes += " foreground=\"#1A5FB4\" underline=\"single\"" }
                if run.style.contains(.dim) { attributes += " foreground=\"#777777\"" }
                if (1...16).contains(run.colour) { attributes += " foreground=\"\(MarkdownText.Run.paperColours[Int(run.colour) - 1])\"" }
                out += "<span\(attributes)>"
            }
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(scalar)
            }
            for run in line.runs where run.start + run.length - 1 == index { out += "</span>" }
        }
        return out
    }

    /// A layout of `line` wrapped to the text width (caller unrefs it).
    private func layout(_ line: MarkdownText.Line, in cr: OpaquePointer) -> OpaquePointer? {
        guard let layout = pango.pango_cairo_create_layout(cr) else { return nil }
        if let font = pango.pango_font_description_from_string(Self.font(line)) {
            pango.pango_layout_set_font_description(layout, font)
            pango.pango_font_description_free(font)
        }
        pango.pango_layout_set_width(layout, Int32(Self.width * Double(quire_pango_scale)))
        pango.pango_layout_set_wrap(layout, Int32(quire_pango_wrap_word_char))
        pango.pango_layout_set_markup(layout, Self.markup(line), -1)
        return layout
    }

    /// Space above a line of this kind.
    static func gap(_ line: MarkdownText.Line) -> Double {
        switch line.kind {
        case .heading: 6
        case .blank: 0
        default: 1
        }
    }

    /// Lays out lines until page `last` (0-based) is complete or the file ends.
    private func paginate(through last: Int) throws(DocumentError) {
        guard !paging.isDone, pages.count <= last else { return }
        let scratch = try CairoImage(width: 1, height: 1, path: path)
        let bottom = TextSource.page.height - TextSource.margin
        try scratch.draw(path: path) { cr in
            var state = paging
            defer { paging = state }
            var measuring: [String: OpaquePointer] = [:]
            defer { for layout in measuring.values { g_object_unref(UnsafeMutableRawPointer(layout)) } }
            var lines = markdown.lines
            while true {
                if state.line >= lines.count {
                    // Only the first lines were made: the rest now (the same lines first).
                    guard rest != nil else { break }
                    lines = completeText.lines
                    guard state.line < lines.count else { break }
                }
                let index = state.line
                let line = lines[index]
                state.line += 1
                let height: Double
                if line.kind == .blank {
                    height = 6
                } else if line.kind == .image, let size = pictureSize(line) {
                    height = size.height + 4
                } else {
                    // One layout a font, reused: only the text changes from line to line.
                    let font = Self.font(line)
                    if measuring[font] == nil { measuring[font] = layout(line, in: cr) }
                    guard let layout = measuring[font] else { continue }
                    pango.pango_layout_set_markup(layout, Self.markup(line), -1)
                    var width: Int32 = 0, pixels: Int32 = 0
                    pango.pango_layout_get_pixel_size(layout, &width, &pixels)
                    height = Double(pixels) + Self.gap(line)
                }
                if state.y + height > bottom && !state.page.isEmpty {
                    pages.append(state.page)
                    state.page = []
                    state.y = TextSource.margin
                    if pages.count >= maximumPages {
                        state.isDone = true
                        return
                    }
                    if line.kind == .blank {
                        if pages.count > last { return }
                        continue
                    }
                    if pages.count > last {
                        // This line starts the next page: placed when that page is asked for.
                        state.line = index
                        return
                    }
                }
                state.page.append((index, state.y + Self.gap(line)))
                state.y += height
            }
            if !state.page.isEmpty { pages.append(state.page) }
            state.page = []
            state.isDone = true
        }
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        try paginate(through: index)
        guard pages.indices.contains(index) else { return }
        libcairo.cairo_save(cr)
        defer { libcairo.cairo_restore(cr) }
        for (number, y) in pages[index] {
            let line = markdown.lines[number]
            if line.kind == .image, let bytes = line.image, Self.isSVG(bytes), let size = pictureSize(line),
               let svg = try? SVGSource(bytes: bytes, path: path, limits: limits) {
                libcairo.cairo_save(cr)
                libcairo.cairo_translate(cr, TextSource.margin, y)
                libcairo.cairo_scale(cr, size.width / svg.size.width, size.height / svg.size.height)
                try? svg.draw(page: 0, in: cr, forPrinting: forPrinting)
                libcairo.cairo_restore(cr)
                continue
            }
            if line.kind == .image, let bytes = line.image, let size = pictureSize(line),
               let picture = try? ImageDecoder(source: .bytes(bytes, name: "output"), path: path, limits: limits)
                .decode(target: { ($0, $1) }) {
                libcairo.cairo_save(cr)
                libcairo.cairo_translate(cr, TextSource.margin, y)
                libcairo.cairo_scale(cr, size.width / Double(picture.width), size.height / Double(picture.height))
                libcairo.cairo_set_source_surface(cr, picture.surface, 0, 0)
                libcairo.cairo_paint(cr)
                libcairo.cairo_restore(cr)
                continue
            }
            guard line.kind != .blank, let layout = layout(line, in: cr) else { continue }
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            var width: Int32 = 0, height: Int32 = 0
            pango.pango_layout_get_pixel_size(layout, &width, &height)
            if line.kind == .code {
                libcairo.cairo_set_source_rgb(cr, 0.95, 0.95, 0.95)
                libcairo.cairo_rectangle(cr, TextSource.margin - 4, y - 1, Self.width + 8, Double(height) + 2)
                libcairo.cairo_fill(cr)
            }
            if line.kind == .rule {
                libcairo.cairo_set_source_rgb(cr, 0.6, 0.6, 0.6)
                libcairo.cairo_rectangle(cr, TextSource.margin, y + Double(height) / 2, Self.width, 0.8)
                libcairo.cairo_fill(cr)
                continue
            }
            libcairo.cairo_set_source_rgb(cr, 0, 0, 0)
            libcairo.cairo_move_to(cr, TextSource.margin, y)
            pango.pango_cairo_show_layout(cr, layout)
        }
    }

    /// Whether a picture's bytes are an SVG document (a notebook's `image/svg+xml` output), not
    /// a raster (PNG and JPEG start with binary signatures).
    static func isSVG(_ bytes: [UInt8]) -> Bool {
        bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF } == UInt8(ascii: "<")
    }

    /// A notebook's thumbnail: its first image output (never enlarged, as raster thumbnails are
    /// not); nil — page 1 — when it has none, it cannot be read, or the family's thumbnail is
    /// its page (``thumbnailIsFirstPicture``).
    func thumbnail(longestSide: Int) throws(DocumentError) -> CairoImage? {
        guard thumbnailIsFirstPicture, let bytes = markdown.lines.first(where: { $0.kind == .image && $0.image != nil })?.image else { return nil }
        return Self.picture(bytes, fitting: (longestSide, longestSide), path: path, limits: limits)
    }

    /// A picture line's picture (PNG, JPEG, SVG…) drawn to fit `box` pixels, never enlarged;
    /// nil when it cannot be read.
    static func picture(_ bytes: [UInt8], fitting box: (width: Int, height: Int), path: DocumentPath, limits: RenderLimits) -> CairoImage? {
        func fitted(_ width: Double, _ height: Double) -> (Int, Int) {
            let scale = min(1, Double(box.width) / max(1, width), Double(box.height) / max(1, height))
            return (max(1, Int((width * scale).rounded())), max(1, Int((height * scale).rounded())))
        }
        if isSVG(bytes) {
            guard let svg = try? SVGSource(bytes: bytes, path: path, limits: limits), svg.size.width > 0, svg.size.height > 0 else { return nil }
            let (width, height) = fitted(svg.size.width, svg.size.height)
            return try? svg.raster(page: 0, width: width, height: height)
        }
        return try? ImageDecoder(source: .bytes(bytes, name: "output"), path: path, limits: limits).decode { width, height in
            fitted(Double(width), Double(height))
        }
    }

    /// The pictures of `markdown`'s picture lines for a viewer's rendered text (the window):
    /// each fitted to `box`, while their pixels stay within `budget` bytes in all.
    public static func pictures(of markdown: MarkdownText, fitting box: (width: Int, height: Int), budget: Int,
                                path: DocumentPath, limits: RenderLimits = .standard) -> [(line: Int, image: RenderedImage)] {
        var pictures: [(line: Int, image: RenderedImage)] = []
        var spent = 0
        for (index, line) in markdown.lines.enumerated() where line.kind == .image {
            guard let bytes = line.image, let picture = picture(bytes, fitting: box, path: path, limits: limits)?.rendered() else { continue }
            guard spent + picture.pixels.count <= budget else { break }
            spent += picture.pixels.count
            pictures.append((index, picture))
        }
        return pictures
    }

    /// The size a picture line is drawn at: a pixel a point, shrunk to the text width and to
    /// two thirds of the page's height; nil when the picture cannot be read (its text is drawn).
    private func pictureSize(_ line: MarkdownText.Line) -> (width: Double, height: Double)? {
        guard let bytes = line.image else { return nil }
        let width: Double, height: Double
        if Self.isSVG(bytes) {
            guard let svg = try? SVGSource(bytes: bytes, path: path, limits: limits) else { return nil }
            (width, height) = (svg.size.width, svg.size.height)
        } else {
            guard let (pixelsWide, pixelsHigh) = try? ImageDecoder(source: .bytes(bytes, name: "output"), path: path, limits: limits).probe()
            else { return nil }
            (width, height) = (Double(pixelsWide), Double(pixelsHigh))
        }
        guard width > 0, height > 0 else { return nil }
        let scale = min(1, Self.width / Double(width), (TextSource.page.height - 2 * TextSource.margin) * 2 / 3 / Double(height))
        return (Double(width) * scale, Double(height) * scale)
    }

    func text(page index: Int) throws(DocumentError) -> String? {
        try paginate(through: index)
        guard pages.indices.contains(index) else { return nil }
        return pages[index].map { markdown.lines[$0.line].text }.joined(separator: "\n")
    }
}

extension RenderEngine {
    /// Lines made at first for pages (page 1 takes a few dozen; more are made when asked for).
    static let markdownFirstLines = 400

    /// Markdown: rendered pages; viewers get the styled lines (the terminal draws them in colour).
    static let markdown = RenderEngine(name: "markdown", families: [.markdown]) { (input) throws(DocumentError) in
        // A thumbnail is page 1: the first 64 KiB are read and one page laid out, whatever the size.
        let thumbnail = input.preferEmbeddedPreview
        let limit = thumbnail ? 64 << 10 : MarkdownText.maximumBytes
        let bytes: [UInt8]
        do throws(InputError) { bytes = try input.file.read(upTo: limit) } catch { throw DocumentError(error) }
        let path = input.file.path
        // Pages, not a viewer's text (`preview`, print): the whole file is parsed, but lines are
        // made only for the first pages; the rest, and the facts that need every line (title,
        // words, the text form), when asked for (``Renderer``).
        let firstLinesOnly = !thumbnail && !input.firstPageFirst
        // The pictures beside the file that it shows are read for its pages (never an address).
        let (markdown, isComplete) = try MarkdownText.parseShowingPictures(bytes, path: path, lineBudget: firstLinesOnly ? Self.markdownFirstLines : nil)
        let source = try MarkdownSource(path: path, markdown: markdown, maximumPages: thumbnail ? 1 : input.limits.maximumPages,
                                        limits: input.limits, thumbnailIsFirstPicture: false,
                                        rest: isComplete ? nil : { () throws(DocumentError) in
                                            try MarkdownText.parseShowingPictures(bytes, path: path, lineBudget: nil).text
                                        })
        var opened = Opened(source: source)
        if isComplete {
            opened.title = markdown.title
            opened.details = MarkdownText.details(markdown)
            opened.viewText = markdown.lines.map(\.text)
            opened.markdown = markdown
        }
        return opened
    }
}

extension MarkdownText {
    /// The card's facts: title, headings, words.
    static func details(_ markdown: MarkdownText) -> [CardRow] {
        var details: [CardRow] = []
        if let title = markdown.title { details.append(CardRow("Title", title)) }
        details.append(CardRow("Headings", "\(markdown.headings.count)"))
        details.append(CardRow("Words", ArchiveListingText.grouped(markdown.wordCount)))
        return details
    }
}
