internal import CDjVuLibre
internal import CCairo
import QuireTypes

/// One DjVu document open in DjVuLibre's decoder (`ddjvuapi`), with its own context; both freed
/// with this object. The decoder reads nothing itself: its requests for data are answered here —
/// the main file from the checked ``InputFile``; an indirect document's page files only from
/// the document's own folder, by a plain base name (no `/`, no `..`), each a regular file
/// within the size limit. Any other request is refused, and that page says so.
final class DjVuDocument {
    let api: quire_djvu_api
    let context: OpaquePointer
    let document: OpaquePointer
    let file: InputFile
    let limits: RenderLimits
    var path: DocumentPath { file.path }
    /// Why the document or a page failed: a page file that could not be given (it names the
    /// file), else the decoder's last error message.
    var lastError: String? { streamProblem ?? decoderError }
    private var decoderError: String?
    private var streamProblem: String?

    init(file: InputFile, limits: RenderLimits) throws(DocumentError) {
        let api = try LazyLibraries.djvu(file.path)
        guard let context = api.ddjvu_context_create("quire") else {
            throw DocumentError(kind: .limitExceeded, path: file.path, reason: "DjVuLibre could not start")
        }
        guard let document = api.ddjvu_document_create(context, Self.url, 0) else {
            api.ddjvu_context_release(context)
            throw DocumentError(kind: .damaged, path: file.path, reason: "DjVuLibre could not open it")
        }
        self.api = api
        self.context = context
        self.document = document
        self.file = file
        self.limits = limits
        api.ddjvu_cache_set_size(context, 16 << 20)
        let status = wait { api.ddjvu_job_status(api.ddjvu_document_job(document)) }
        guard status == DDJVU_JOB_OK else {
            throw DocumentError(kind: .damaged, path: file.path,
                                reason: "not a readable DjVu document (\(lastError ?? "DjVuLibre could not decode it"))")
        }
    }

    deinit {
        api.ddjvu_job_release(api.ddjvu_document_job(document))
        api.ddjvu_context_release(context)
    }

    /// The document's URL for DjVuLibre (its cache key and the base of an indirect document's
    /// page files): not a `file:` URL, which DjVuLibre would open itself — every byte it reads
    /// comes through ``feed(stream:name:)``.
    static let url = "quire://document/document.djvu"

    var pageCount: Int { Int(api.ddjvu_document_get_pagenum(document)) }

    /// Page `index`'s size in pixels, resolution and rotation (quarter turns), read from its
    /// header (no page decoded); nil when it cannot be read.
    func pageInfo(_ index: Int) -> ddjvu_pageinfo_t? {
        var info = ddjvu_pageinfo_t()
        let status = wait { api.ddjvu_document_get_pageinfo_imp(document, Int32(index), &info, quire_djvu_pageinfo_size()) }
        return status == DDJVU_JOB_OK && info.width > 0 && info.height > 0 && info.dpi > 0 ? info : nil
    }

    /// Page `index` decoded and drawn at `width`×`height` pixels, every layer (colour), into
    /// a cairo image (a page drawn into a larger picture: printing, index sheets).
    func render(page index: Int, width: Int, height: Int) throws(DocumentError) -> CairoImage {
        let image = try CairoImage(width: width, height: height, path: path)
        image.fillWhite()
        libcairo.cairo_surface_flush(image.surface)
        let stride = Int(libcairo.cairo_image_surface_get_stride(image.surface))
        let data = libcairo.cairo_image_surface_get_data(image.surface)!
        // cairo's ARGB32: one native-endian word a pixel, alpha in the top byte.
        try draw(page: index, width: width, height: height, masks: [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000],
                 into: UnsafeMutableRawPointer(data), stride: stride)
        libcairo.cairo_surface_mark_dirty(image.surface)
        return image
    }

    /// Page `index` decoded and drawn at `width`×`height` pixels as straight RGBA bytes, without
    /// cairo: a page shown or thumbnailed on its own (a one-file thumbnail then loads neither
    /// cairo nor its sixteen libraries).
    func pixels(page index: Int, width: Int, height: Int) throws(DocumentError) -> RenderedImage {
        let (count, overflow) = width.multipliedReportingOverflow(by: height * 4)
        guard width > 0, height > 0, !overflow else {
            throw DocumentError(kind: .limitExceeded, path: path, reason: "a page of \(width)×\(height) pixels cannot be drawn")
        }
        // Bytes R, G, B, A in memory whatever the machine's byte order; the fourth mask is set in
        // every pixel (opaque).
        let masks = [UInt32(0x0000_00FF).littleEndian, UInt32(0x0000_FF00).littleEndian, UInt32(0x00FF_0000).littleEndian,
                     UInt32(0xFF00_0000).littleEndian]
        // White first (a few hundred kilobytes for a screen's page): what DjVuLibre leaves is
        // paper, never memory nobody wrote.
        var bytes = [UInt8](repeating: 0xFF, count: count)
        var failure: DocumentError?
        bytes.withUnsafeMutableBytes { raw in
            do throws(DocumentError) {
                try draw(page: index, width: width, height: height, masks: masks, into: raw.baseAddress!, stride: width * 4)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return RenderedImage(width: width, height: height, pixels: bytes)
    }

    /// Decodes page `index` and draws it into `width`×`height` pixels of 32 bits at `pixels`,
    /// `stride` bytes a row, in DjVuLibre's RGBMASK32 format with these four masks.
    private func draw(page index: Int, width: Int, height: Int, masks: [UInt32], into pixels: UnsafeMutableRawPointer,
                      stride: Int) throws(DocumentError) {
        guard let page = api.ddjvu_page_create_by_pageno(document, Int32(index)) else {
            throw DocumentError(kind: .damaged, path: path, reason: "page \(index + 1) cannot be read")
        }
        defer { api.ddjvu_job_release(api.ddjvu_page_job(page)) }
        let status = wait { api.ddjvu_job_status(api.ddjvu_page_job(page)) }
        guard status == DDJVU_JOB_OK else {
            throw DocumentError(kind: .damaged, path: path,
                                reason: "page \(index + 1) cannot be decoded (\(lastError ?? "DjVuLibre gave no reason"))")
        }
        var masks = masks   // (the last one is xored into every pixel)
        guard let format = masks.withUnsafeMutableBufferPointer({ api.ddjvu_format_create(DDJVU_FORMAT_RGBMASK32, 4, $0.baseAddress) }) else {
            throw DocumentError(kind: .limitExceeded, path: path, reason: "DjVuLibre could not describe the pixels")
        }
        defer { api.ddjvu_format_release(format) }
        api.ddjvu_format_set_row_order(format, 1)
        api.ddjvu_format_set_y_direction(format, 1)
        var rectangle = ddjvu_rect_t(x: 0, y: 0, w: UInt32(width), h: UInt32(height))
        let drawn = pixels.withMemoryRebound(to: CChar.self, capacity: stride * height) {
            api.ddjvu_page_render(page, DDJVU_RENDER_COLOR, &rectangle, &rectangle, format, UInt(stride), $0)
        }
        guard drawn != 0 else {
            throw DocumentError(kind: .damaged, path: path, reason: "page \(index + 1) has nothing DjVuLibre can draw")
        }
    }

    /// Page `index`'s hidden text as DjVuLibre gives it (an s-expression of words with their
    /// boxes), made into words; empty when the page has no text layer.
    func words(page index: Int) -> [DjVuText.Word] {
        var expression: OpaquePointer?
        _ = wait { () -> ddjvu_status_t in
            expression = api.ddjvu_document_get_pagetext(document, Int32(index), "word")
            return quire_miniexp_is_dummy(expression) != 0 ? DDJVU_JOB_STARTED : DDJVU_JOB_OK
        }
        guard let expression, quire_miniexp_is_dummy(expression) == 0 else { return [] }
        defer { api.ddjvu_miniexp_release(document, expression) }
        return DjVuText.words(expression, api: api)
    }

    /// Answers the decoder's messages until `status` says the job ended (OK, failed or stopped).
    private func wait(_ status: () -> ddjvu_status_t) -> ddjvu_status_t {
        while true {
            handleMessages()
            let current = status()
            if current.rawValue >= DDJVU_JOB_OK.rawValue { return current }
            _ = api.ddjvu_message_wait(context)
        }
    }

    private func handleMessages() {
        while let message = api.ddjvu_message_peek(context) {
            switch quire_djvu_message_tag(message) {
            case DDJVU_ERROR:
                decoderError = quire_djvu_error_text(message).map { String(cString: $0) }
            case DDJVU_NEWSTREAM:
                let id = quire_djvu_newstream_id(message)
                let name = quire_djvu_newstream_name(message).map { String(cString: $0) }
                feed(stream: id, name: name)
            default:
                break
            }
            api.ddjvu_message_pop(context)
        }
    }

    /// Writes the data of stream `id`: the main file (stream 0), or a file of an indirect
    /// document beside it. Refused names and unreadable files end the stream unread.
    private func feed(stream id: Int32, name: String?) {
        var source: InputFile?
        // Stream 0 is the main file (DjVuLibre names it after the URL's last part).
        if id != 0, let name {
            let shown = TerminalEscaping.escaped(Array(name.utf8))
            if !Self.isPlainName(name) {
                streamProblem = "the page file \(shown) is not beside the document"
            } else {
                do {
                    let beside = try InputFile(path: DocumentPath(bytes: Self.folder(of: file.path) + Array(name.utf8)))
                    if beside.size <= Int64(limits.maximumInflatedBytes) {
                        source = beside
                    } else {
                        streamProblem = "the page file \(shown) is larger than " + Limit.inflatedSize.exceeded(limits.maximumInflatedBytes, "bytes")
                    }
                } catch {
                    streamProblem = "the page file \(shown) cannot be read (\(error.reason))"
                }
            }
        } else {
            source = file
        }
        if let source {
            var offset: Int64 = 0
            while offset < source.size {
                guard let chunk = try? source.read(upTo: 1 << 16, at: offset), !chunk.isEmpty else { break }
                chunk.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { api.ddjvu_stream_write(document, id, $0.baseAddress, UInt(buffer.count)) }
                }
                offset += Int64(chunk.count)
            }
        }
        api.ddjvu_stream_close(document, id, source == nil ? 1 : 0)
    }

    /// A base name an indirect document may name: no folder, not `.`/`..`, no NUL.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.utf8.contains(0)
    }

    /// The document's folder as path bytes ending in `/` (`./` for a path with no folder part).
    static func folder(of path: DocumentPath) -> [UInt8] {
        guard let slash = path.bytes.lastIndex(of: UInt8(ascii: "/")) else { return Array("./".utf8) }
        return Array(path.bytes[...slash])
    }
}
