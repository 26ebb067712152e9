internal import CCairo
internal import CPangoCairo
import QuireTypes

/// An archive shown as its listing (``ArchiveListingText``) on A4 pages in a monospace font,
/// with the text pages' margins and pitch — and, as a thumbnail, a
/// drawn archive box with its entry count.
final class ArchiveSource: PageSource {
    let listing: ArchiveListing
    /// The listing's lines (none wraps: ``ArchiveListingText/width``) as text pages, laid out a
    /// page at a time when the page is drawn: 100,000 entries open in the time it takes to read them.
    private let pages: LinePageSource
    let path: DocumentPath

    var pageCount: Int { pages.pageCount }
    var isPaper: Bool { true }

    init(file: InputFile, contentType: ContentType) throws(DocumentError) {
        path = file.path
        listing = try ArchiveListing.read(file)
        pages = try LinePageSource(path: file.path, lines: ArchiveListingText.lines(listing, name: file.path.displayName))
    }

    func pageSize(at index: Int) -> PageSize { pages.pageSize(at: index) }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        try pages.draw(page: index, in: cr, forPrinting: forPrinting)
    }

    func text(page index: Int) throws(DocumentError) -> String? {
        index * TextSource.linesPerPage < pages.lines.count ? try pages.text(page: index) : nil
    }

    func thumbnail(longestSide: Int) throws(DocumentError) -> CairoImage? {
        let side = Double(longestSide)
        let image = try CairoImage(width: longestSide, height: longestSide, path: path)
        let pango = try LazyLibraries.pango(path)
        let count = listing.entries.count
        let label = (listing.truncation == nil ? "" : "≥ ") + ArchiveListingText.grouped(count) + (count == 1 ? " item" : " items")
        try image.draw(path: path) { cr in
            let c = libcairo
            // The box: a front face and a lid, in cardboard brown, with a strip of tape.
            let left = side * 0.14, right = side * 0.86, top = side * 0.22, lid = side * 0.36, bottom = side * 0.80
            c.cairo_set_source_rgb(cr, 0.80, 0.63, 0.42)
            c.cairo_rectangle(cr, left, lid, right - left, bottom - lid)
            c.cairo_fill(cr)
            c.cairo_set_source_rgb(cr, 0.69, 0.52, 0.32)
            c.cairo_rectangle(cr, left - side * 0.03, top, right - left + side * 0.06, lid - top)
            c.cairo_fill(cr)
            c.cairo_set_source_rgb(cr, 0.93, 0.88, 0.76)
            c.cairo_rectangle(cr, side * 0.45, top, side * 0.10, bottom - top)
            c.cairo_fill(cr)
            // The count under the box.
            guard let layout = pango.pango_cairo_create_layout(cr),
                  let font = pango.pango_font_description_from_string("Sans Bold \(max(1, Int(side * 0.09)))px") else { return }
            defer { g_object_unref(UnsafeMutableRawPointer(layout)); pango.pango_font_description_free(font) }
            pango.pango_layout_set_font_description(layout, font)
            pango.pango_layout_set_text(layout, label, -1)
            var width: Int32 = 0, height: Int32 = 0
            pango.pango_layout_get_pixel_size(layout, &width, &height)
            c.cairo_set_source_rgb(cr, 0.2, 0.2, 0.2)
            c.cairo_move_to(cr, max(0, (side - Double(width)) / 2), bottom + side * 0.03)
            pango.pango_cairo_show_layout(cr, layout)
        }
        return image
    }
}

extension RenderEngine {
    /// Archives (zip, tar and its compressed forms, 7-Zip, RAR, .deb, cpio, ISO…): the listing.
    static let archive = RenderEngine(name: "archive", families: [.archive]) { (input) throws(DocumentError) in
        let source = try ArchiveSource(file: input.file, contentType: input.contentType)
        var opened = Opened(source: source)
        let listing = source.listing
        let count = ArchiveListingText.grouped(listing.entries.count) + (listing.truncation == nil ? "" : "+")
        opened.details = [CardRow("Entries", count + (listing.entries.count == 1 ? " entry" : " entries")),
                          CardRow("Unpacked", ArchiveListingText.bytes(listing.totalSize) + " unpacked")]
        opened.entries = listing.entries.filter { $0.kind == .file && !$0.isUnsafe }
            .map { ArchiveEntryFact(path: $0.path, size: $0.size, modified: $0.modified) }
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        let unsafe = listing.entries.count { $0.isUnsafe }
        if unsafe > 0 { opened.details.append(CardRow("Warning", "\(unsafe) entries would unpack outside the folder")) }
        return opened
    }
}
