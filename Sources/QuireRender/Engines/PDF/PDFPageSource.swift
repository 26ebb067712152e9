internal import CPoppler
internal import CCairo
import QuireGIO
import QuireTypes

/// PDF pages through poppler-glib, drawn straight into the target cairo context (so a thumbnail
/// is rendered at thumbnail scale, never full size and then shrunk).
final class PDFPageSource: PageSource {
    let document: PDFDocument
    let pageCount: Int
    var path: DocumentPath { displayPath ?? document.path }
    var isPaper: Bool { true }
    /// The file messages name when the PDF was made from it (an office document's PDF).
    private let displayPath: DocumentPath?

    /// The PDF file itself and its password (nil for a PDF made from another file): where a
    /// form's radio buttons' names are read.
    let pdfFile: (file: InputFile, password: String?)?

    init(file: InputFile, password: String?, displayPath: DocumentPath? = nil) throws(DocumentError) {
        self.displayPath = displayPath
        pdfFile = displayPath == nil ? (file, password) : nil
        document = try PDFDocument(file: file, password: password)
        pageCount = document.pageCount
        if pageCount < 1 {
            throw DocumentError(kind: .damaged, path: file.path, reason: "the PDF has no pages")
        }
    }

    func pageSize(at index: Int) -> PageSize {
        let size = document.pageSize(at: index) ?? PageSize(width: 595.28, height: 841.89)
        // Degenerate MediaBoxes exist in the wild; give them a drawable size.
        return PageSize(width: max(size.width, 1), height: max(size.height, 1))
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        guard let page = libpoppler.poppler_document_get_page(document.document, Int32(index)) else {
            throw DocumentError(kind: .damaged, path: path, reason: "page \(index + 1) cannot be read")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        if forPrinting {
            libpoppler.poppler_page_render_for_printing(page, cr)
        } else {
            libpoppler.poppler_page_render(page, cr)
        }
    }

    func text(page index: Int) throws(DocumentError) -> String? {
        let page = try popplerPage(index)
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        return Self.text(of: page)
    }

    /// poppler's search: literal text, case-insensitive, accents ignored, across line ends. The
    /// boxes poppler gives (PDF space, y upwards) are turned to the page's top-left corner.
    func find(_ query: String, page index: Int) throws(DocumentError) -> PageMatches? {
        let page = try popplerPage(index)
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var height = 0.0
        libpoppler.poppler_page_get_size(page, nil, &height)
        var matches: [[TextBox]] = []
        let flags = PopplerFindFlags(rawValue: POPPLER_FIND_IGNORE_DIACRITICS.rawValue | POPPLER_FIND_MULTILINE.rawValue)
        // poppler ignores accents only for an ASCII query: "café" is asked as "cafe".
        let asked = TextFolding.asciiWithoutAccents(query)
        if !asked.isEmpty, let list = libpoppler.poppler_page_find_text_with_options(page, asked, flags) {
            var current: [TextBox] = []
            var node: UnsafeMutablePointer<GList>? = list
            while let item = node {
                if let data = item.pointee.data {
                    let rectangle = data.assumingMemoryBound(to: PopplerRectangle.self)
                    let r = rectangle.pointee
                    current.append(TextBox(x: min(r.x1, r.x2), y: height - max(r.y1, r.y2),
                                           width: abs(r.x2 - r.x1), height: abs(r.y2 - r.y1)))
                    if libpoppler.poppler_rectangle_find_get_match_continued(rectangle) == 0 {
                        matches.append(current)
                        current = []
                    }
                    libpoppler.poppler_rectangle_free(rectangle)
                }
                node = item.pointee.next
            }
            if !current.isEmpty { matches.append(current) }
            g_list_free(list)
        }
        // poppler keeps the page's text once extracted: asking for it after the search is cheap.
        let hasText = !matches.isEmpty || Self.text(of: page).unicodeScalars.contains { !$0.properties.isWhitespace }
        return PageMatches(matches: matches, hasText: hasText)
    }

    /// The page's text with a box per character (poppler gives one per character of its text,
    /// line ends included, already from the top-left corner).
    func textLayout(page index: Int) throws(DocumentError) -> PageTextLayout? {
        let page = try popplerPage(index)
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        let characters = Array(Self.text(of: page).unicodeScalars)
        var rectangles: UnsafeMutablePointer<PopplerRectangle>?
        var count: guint = 0
        guard libpoppler.poppler_page_get_text_layout(page, &rectangles, &count) != 0, let rectangles else {
            return PageTextLayout(characters: [], boxes: [])
        }
        defer { g_free(rectangles) }
        let shared = min(characters.count, Int(count))
        var boxes: [TextBox] = []
        boxes.reserveCapacity(shared)
        for i in 0..<shared {
            let r = rectangles[i]
            boxes.append(TextBox(x: min(r.x1, r.x2), y: min(r.y1, r.y2), width: abs(r.x2 - r.x1), height: abs(r.y2 - r.y1)))
        }
        return PageTextLayout(characters: Array(characters[0..<shared]), boxes: boxes)
    }

    /// Whether the document lets its text be copied out (its permissions; poppler itself does
    /// not enforce them).
    var allowsCopying: Bool {
        let permissions = libpoppler.poppler_document_get_permissions(document.document).rawValue
        return permissions & POPPLER_PERMISSIONS_OK_TO_COPY.rawValue != 0
    }

    private func popplerPage(_ index: Int) throws(DocumentError) -> OpaquePointer {
        guard let page = libpoppler.poppler_document_get_page(document.document, Int32(index)) else {
            throw DocumentError(kind: .damaged, path: path, reason: "page \(index + 1) cannot be read")
        }
        return page
    }

    private static func text(of page: OpaquePointer) -> String {
        guard let text = libpoppler.poppler_page_get_text(page) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }
}

extension RenderEngine {
    /// PDF through poppler-glib and cairo.
    static let pdf = RenderEngine(name: "pdf", families: [.pdf]) { (input) throws(DocumentError) in
        Opened(source: try PDFPageSource(file: input.file, password: input.password))
    }
}
