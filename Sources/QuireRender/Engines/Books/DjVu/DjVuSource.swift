internal import CCairo
import QuireTypes

/// A DjVu document (a scanned book or paper) as pages: each at its own size in points (pixels
/// at the page's resolution), drawn by DjVuLibre at the size asked; the hidden text layer, where
/// the scan has one, for the page's text, find and copy. Bundled documents and indirect ones
/// (page files beside the index file, see ``DjVuDocument``).
final class DjVuSource: PageSource {
    let document: DjVuDocument
    var path: DocumentPath { document.path }
    private let pixels: [(width: Int, height: Int)?]
    private let sizes: [PageSize]
    var pageCount: Int { sizes.count }
    var isPaper: Bool { true }

    init(document: DjVuDocument) throws(DocumentError) {
        self.document = document
        let count = document.pageCount
        guard count > 0 else {
            throw DocumentError(kind: .damaged, path: document.path, reason: "the DjVu document has no pages")
        }
        var pixels: [(width: Int, height: Int)?] = [], sizes: [PageSize] = []
        for index in 0..<count {
            if let info = document.pageInfo(index) {
                let turned = info.rotation % 2 == 1
                let (w, h) = turned ? (Int(info.height), Int(info.width)) : (Int(info.width), Int(info.height))
                pixels.append((w, h))
                sizes.append(PageSize(width: Double(w) * 72 / Double(info.dpi), height: Double(h) * 72 / Double(info.dpi)))
            } else {
                pixels.append(nil)
                sizes.append(sizes.last ?? PageSize(width: 612, height: 792))
            }
        }
        self.pixels = pixels
        self.sizes = sizes
    }

    func pageSize(at index: Int) -> PageSize { sizes[index] }

    /// Refuses a page that is missing or whose stored pixels pass the limit (a bomb's header).
    private func checkPage(_ index: Int) throws(DocumentError) {
        guard let stored = pixels[index] else {
            throw DocumentError(kind: .damaged, path: path,
                                reason: "page \(index + 1) cannot be read (\(document.lastError ?? "no page information"))")
        }
        try document.limits.checkPixels(stored.width, stored.height, of: "page \(index + 1)", path: path)
    }

    func raster(page index: Int, width: Int, height: Int) throws(DocumentError) -> CairoImage {
        try checkPage(index)
        return try document.render(page: index, width: width, height: height)
    }

    func pixels(page index: Int, width: Int, height: Int) throws(DocumentError) -> RenderedImage? {
        try checkPage(index)
        return try document.pixels(page: index, width: width, height: height)
    }

    /// Drawn from a raster at the page's own pixels (at most 300 dots an inch when printed).
    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        try checkPage(index)
        guard let stored = pixels[index] else { return }
        let size = sizes[index]
        let scale = min(1, 300 / 72 * size.width / Double(stored.width))
        let width = max(1, Int((Double(stored.width) * scale).rounded())), height = max(1, Int((Double(stored.height) * scale).rounded()))
        let image = try document.render(page: index, width: width, height: height)
        libcairo.cairo_save(cr)
        libcairo.cairo_scale(cr, size.width / Double(width), size.height / Double(height))
        libcairo.cairo_set_source_surface(cr, image.surface, 0, 0)
        libcairo.cairo_paint(cr)
        libcairo.cairo_restore(cr)
    }

    func text(page index: Int) throws(DocumentError) -> String? {
        try textLayout(page: index).map { $0.text(0..<$0.characters.count) }
    }

    func find(_ query: String, page index: Int) throws(DocumentError) -> PageMatches? {
        guard let layout = try textLayout(page: index) else { return nil }
        return PageMatches(matches: layout.matches(of: query), hasText: !layout.isEmpty)
    }

    /// The text layer's words in reading order, a space between words of a line and a line end
    /// after each line; each character gets an equal share of its word's box.
    func textLayout(page index: Int) throws(DocumentError) -> PageTextLayout? {
        guard index < pageCount else { return nil }
        let words = document.words(page: index)
        guard let stored = pixels[index] else { return PageTextLayout(characters: [], boxes: []) }
        let size = sizes[index]
        let scale = size.width / Double(stored.width)
        var characters: [Unicode.Scalar] = [], boxes: [TextBox] = []
        for (number, word) in words.enumerated() {
            let box = TextBox(x: Double(word.x0) * scale, y: Double(stored.height - word.y1) * scale,
                              width: Double(word.x1 - word.x0) * scale, height: Double(word.y1 - word.y0) * scale)
            let scalars = Array(word.text.unicodeScalars)
            let share = box.width / Double(max(1, scalars.count))
            for (offset, scalar) in scalars.enumerated() {
                characters.append(scalar)
                boxes.append(TextBox(x: box.x + Double(offset) * share, y: box.y, width: share, height: box.height))
            }
            let end = TextBox(x: box.maxX, y: box.y, width: 0, height: box.height)
            if number + 1 < words.count {
                characters.append(words[number + 1].line == word.line ? " " : "\n")
                boxes.append(end)
            }
        }
        return PageTextLayout(characters: characters, boxes: boxes)
    }
}

extension RenderEngine {
    /// DjVu documents through DjVuLibre's decoding API.
    static let djvu = RenderEngine(name: "djvu", families: [.djvu]) { (input) throws(DocumentError) in
        Opened(source: try DjVuSource(document: try DjVuDocument(file: input.file, limits: input.limits)))
    }
}
