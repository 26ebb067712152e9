internal import CRsvg
internal import CCairo
import QuireTypes
import QuireGIO

/// SVG through librsvg. The document is loaded from memory with no base URI, so librsvg cannot
/// resolve references to other files; it never fetches from the network. Only `data:` URLs
/// inside the document are honoured.
final class SVGSource: PageSource {
    let path: DocumentPath
    let handle: OpaquePointer  // RsvgHandle*
    /// librsvg's entry points (loaded on first use).
    let rsvg: quire_rsvg_api
    let size: PageSize
    var pageCount: Int { 1 }
    var isPaper: Bool { false }

    convenience init(file: InputFile, limits: RenderLimits) throws(DocumentError) {
        guard file.size <= Int64(limits.maximumSVGBytes) else {
            throw DocumentError(kind: .limitExceeded, path: file.path,
                                reason: "SVG is \(file.size) bytes, more than the limit of \(limits.maximumSVGBytes) bytes")
        }
        let bytes: [UInt8]
        do { bytes = try file.read(upTo: Int(file.size)) } catch { throw DocumentError(error) }
        try self.init(bytes: bytes, path: file.path, limits: limits)
    }

    /// An SVG document held in memory (a notebook's `image/svg+xml` output), for `path`'s messages.
    init(bytes: [UInt8], path: DocumentPath, limits: RenderLimits) throws(DocumentError) {
        self.path = path
        let rsvg = try LazyLibraries.rsvg(path)
        self.rsvg = rsvg
        guard bytes.count <= limits.maximumSVGBytes else {
            throw DocumentError(kind: .limitExceeded, path: path,
                                reason: "SVG is \(bytes.count) bytes, more than the limit of \(limits.maximumSVGBytes) bytes")
        }
        var gerror: UnsafeMutablePointer<GError>?
        let created = bytes.withUnsafeBufferPointer { rsvg.rsvg_handle_new_from_data($0.baseAddress, gsize($0.count), &gerror) }
        guard let created else {
            let error = GLibError.take(gerror)
            throw DocumentError(kind: .damaged, path: path,
                                reason: "not a readable SVG (\(error?.message.trimmingWhitespaceAndNewlines() ?? "librsvg could not parse it"))",
                                underlying: error)
        }
        handle = created
        rsvg.rsvg_handle_set_dpi(handle, 96)
        var width = 0.0, height = 0.0
        if rsvg.rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0, width > 0, height > 0 {
            size = PageSize(width: width, height: height)
        } else {
            var hasViewBox: gboolean = 0
            var viewBox = RsvgRectangle()
            rsvg.rsvg_handle_get_intrinsic_dimensions(handle, nil, nil, nil, nil, &hasViewBox, &viewBox)
            if hasViewBox != 0, viewBox.width > 0, viewBox.height > 0 {
                size = PageSize(width: viewBox.width, height: viewBox.height)
            } else {
                size = PageSize(width: 512, height: 512)
            }
        }
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    func pageSize(at index: Int) -> PageSize { size }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        var viewport = RsvgRectangle(x: 0, y: 0, width: size.width, height: size.height)
        var gerror: UnsafeMutablePointer<GError>?
        if rsvg.rsvg_handle_render_document(handle, cr, &viewport, &gerror) == 0 {
            let error = GLibError.take(gerror)
            throw DocumentError(kind: .damaged, path: path,
                                reason: "SVG cannot be drawn (\(error?.message ?? "librsvg failed"))", underlying: error)
        }
    }
}

import FoundationEssentials

extension RenderEngine {
    /// SVG through librsvg.
    static let svg = RenderEngine(name: "svg", families: [.svg]) { (input) throws(DocumentError) in
        Opened(source: try SVGSource(file: input.file, limits: input.limits))
    }
}
