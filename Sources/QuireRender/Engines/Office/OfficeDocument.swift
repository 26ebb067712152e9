#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CCairo
internal import CLibreOfficeKit
import QuireTypes

/// A document LibreOffice has loaded (``OfficeKit/load(_:password:)``), owned until closed:
/// exported as PDF for its pages as they print, and — to show page 1 before the whole export —
/// its first page painted straight from LibreOffice's layout (LibreOfficeKit's tiles).
///
/// It lives inside the office, as the office does inside its lock: every call is made with the
/// office held (``OfficeKit/withOffice(_:_:)``), and what leaves the lock is its ``ID``
/// (``OfficeKit/keep(_:)``, ``OfficeKit/document(_:)``, ``OfficeKit/close(_:)-swift.type.method``).
final class OfficeDocument {
    /// A document the office keeps, as named outside the office's lock.
    struct ID: Sendable, Hashable {
        let value: Int
    }

    private(set) var handle: UnsafeMutablePointer<LibreOfficeKitDocument>?
    let path: DocumentPath
    private var preparedForPainting = false
    /// Its PDF, when the office exported it early (before another document loaded).
    var exported: Result<InputFile, DocumentError>?
    /// The view LibreOffice made for this document when it loaded it.
    private let view: Int32
    /// Page 1's area in the layout, in twips.
    private var firstPageArea: (x: Int32, y: Int32, width: Int32, height: Int32)?

    init(_ handle: UnsafeMutablePointer<LibreOfficeKitDocument>, path: DocumentPath) {
        self.handle = handle
        self.path = path
        view = quire_lok_get_view(handle)
    }

    /// The document's handle with its own view current: a document loaded since (a print
    /// job's, in the same worker) made its view the current one, and painting or exporting
    /// through another document's view draws nothing.
    var current: UnsafeMutablePointer<LibreOfficeKitDocument>? {
        guard let handle else { return nil }
        if view >= 0, quire_lok_get_view(handle) != view { quire_lok_set_view(handle, view) }
        return handle
    }

    // Released only under the office's lock: removed from its table (closed first), or at the
    // end of a load and export made in one office call.
    deinit { close() }

    /// Releases LibreOffice's document (the office is held).
    func close() {
        guard let handle else { return }
        quire_lok_document_destroy(handle)
        self.handle = nil
    }

    /// LibreOfficeKit's document types (LOK_DOCTYPE_*).
    enum Kind: Int32 { case text = 0, spreadsheet = 1, presentation = 2, drawing = 3 }

    var kind: Kind? { handle.flatMap { Kind(rawValue: quire_lok_document_type($0)) } }

    /// The pages as LibreOffice has laid them out for its view, before any export: a text
    /// document's page rectangles, a presentation's slides or a drawing's pages (each the size
    /// of the first). Nil for spreadsheets, whose printed pages only the export makes, and for a
    /// layout that cannot be read.
    func laidOutPageSizes() -> [PageSize]? {
        guard let handle = current, let kind else { return nil }
        prepareForPainting()
        switch kind {
        case .text:
            guard let text = quire_lok_page_rectangles(handle) else { return nil }
            defer { free(text) }
            let rectangles = Self.rectangles(String(cString: text))
            guard let first = rectangles.first else { return nil }
            firstPageArea = first
            return rectangles.map { PageSize(width: Double($0.width) / 20, height: Double($0.height) / 20) }
        case .presentation, .drawing:
            let parts = Int(quire_lok_parts(handle))
            guard parts > 0 else { return nil }
            // Part 0 is current after loading; asking for it again would switch views.
            var width = 0, height = 0
            quire_lok_document_size(handle, &width, &height)
            guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else { return nil }
            firstPageArea = (0, 0, Int32(width), Int32(height))
            return Array(repeating: PageSize(width: Double(width) / 20, height: Double(height) / 20), count: parts)
        case .spreadsheet:
            return nil
        }
    }

    /// Page 1 painted by LibreOffice at `width`×`height` pixels on white: premultiplied BGRA
    /// rows of `width * 4` bytes, cairo's ARGB32 on this machine (the office is held;
    /// ``laidOutPageSizes()`` was asked first).
    func paintFirstPage(width: Int, height: Int) throws(DocumentError) -> [UInt8] {
        guard let handle = current, let area = firstPageArea else {
            throw DocumentError(kind: .damaged, path: path, reason: "LibreOffice has no first page laid out for it")
        }
        guard quire_lok_tiles_are_bgra(handle) else {
            throw DocumentError(kind: .unsupported, path: path, reason: "this LibreOffice paints pages in a byte order Quire does not read")
        }
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
            throw DocumentError(kind: .damaged, path: path, reason: "cannot paint into a \(width)×\(height) image")
        }
        var pixels = [UInt8](repeating: 0xFF, count: width * height * 4)
        let kind = self.kind
        pixels.withUnsafeMutableBytes { buffer in
            let data = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            StandardOutputDiversion.run {
                quire_lok_paint_tile(handle, data, Int32(width), Int32(height), area.x, area.y, area.width, area.height)
            }
            if kind == .presentation || kind == .drawing, width > 2, height > 2 {
                // Slides and drawings are painted with a frame around the page (the edge pixels,
                // grey, in no export): each edge takes its neighbour's pixels instead.
                let words = buffer.baseAddress!.assumingMemoryBound(to: UInt32.self)
                for y in 0..<height {
                    words[y * width] = words[y * width + 1]
                    words[y * width + width - 1] = words[y * width + width - 2]
                }
                for x in 0..<width {
                    words[x] = words[width + x]
                    words[(height - 1) * width + x] = words[(height - 2) * width + x]
                }
            }
        }
        return pixels
    }

    private func prepareForPainting() {
        guard let handle = current, !preparedForPainting else { return }
        preparedForPainting = true
        quire_lok_initialize_for_rendering(handle)
    }

    /// "x, y, w, h; x, y, w, h" (twips) → rectangles; malformed or empty ones are dropped.
    static func rectangles(_ text: String) -> [(x: Int32, y: Int32, width: Int32, height: Int32)] {
        text.split(separator: ";").compactMap { part in
            let numbers = part.split(separator: ",").compactMap { Int32(String($0.filter { $0 != " " })) }
            guard numbers.count == 4, numbers[2] > 0, numbers[3] > 0 else { return nil }
            return (numbers[0], numbers[1], numbers[2], numbers[3])
        }
    }
}
