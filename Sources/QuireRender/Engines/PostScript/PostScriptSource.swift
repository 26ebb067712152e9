#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CSpectre
import QuireSystem
import QuireTypes
import Synchronization

/// PostScript and EPS through libspectre, which runs Ghostscript in this process (libgs).
///
/// Ghostscript's `-dSAFER` is not a sandbox: it still lets a document read, write and delete
/// files under `$TMPDIR` (and read its font and resource directories). So Ghostscript runs
/// here only in a render worker (bubblewrap: a private `/tmp`, the system read-only), or, for
/// `quire`'s one-shot commands where bubblewrap does not work, with `$TMPDIR` pointing at an
/// empty directory of its own, made for each call and removed after it
/// (``withGhostscript(privateTemporaryDirectory:_:)``); where bubblewrap works, those commands have a sandboxed worker
/// draw the pages (``InterpreterIsolation``). Pages are rasterised at the requested scale;
/// vector output (PDF export) embeds a 150 dpi raster of each page.
final class PostScriptSource: PageSource {
    /// Ghostscript allows one interpreter instance per process: every libspectre call that may
    /// start one (load, render) runs under this lock.
    static let ghostscript = Mutex(())

    let path: DocumentPath
    /// Kept open: libspectre reopens the file by its /proc/self/fd name on every render.
    let file: InputFile
    let document: OpaquePointer  // SpectreDocument*
    /// libspectre's entry points (loaded on first use).
    let spectre: quire_spectre_api
    let pageCount: Int
    var isPaper: Bool { true }
    var isRaster: Bool { false }
    private let sizes: [PageSize]
    /// Ghostscript's `$TMPDIR` is a directory of its own for each call (``Interpreters``).
    private let privateTemporaryDirectory: Bool

    init(file: InputFile, privateTemporaryDirectory: Bool) throws(DocumentError) {
        path = file.path
        self.file = file
        self.privateTemporaryDirectory = privateTemporaryDirectory
        let spectre = try LazyLibraries.spectre(file.path)
        self.spectre = spectre
        guard let document = spectre.spectre_document_new() else {
            throw DocumentError(kind: .limitExceeded, path: file.path, reason: "libspectre could not allocate a document")
        }
        self.document = document
        // The /proc/self/fd path reads the very file that was checked and opened.
        let procPath = file.procPath, load = spectre.spectre_document_load
        let diagnostics = Self.withGhostscript(privateTemporaryDirectory: privateTemporaryDirectory) { load(document, procPath) }
        let status = spectre.spectre_document_status(document)
        if status != SPECTRE_STATUS_SUCCESS {
            let message = (spectre.spectre_status_to_string(status).map { String(cString: $0) } ?? "error \(status.rawValue)")
            spectre.spectre_document_free(document)
            throw DocumentError(kind: .damaged, path: file.path,
                                reason: "not a readable PostScript document (\(message)\(diagnostics.isEmpty ? "" : ": " + diagnostics))")
        }
        let count = Int(spectre.spectre_document_get_n_pages(document))
        guard count > 0 else {
            spectre.spectre_document_free(document)
            throw DocumentError(kind: .damaged, path: file.path, reason: "the PostScript document has no pages")
        }
        pageCount = count
        var sizes: [PageSize] = []
        for index in 0..<count {
            var width: Int32 = 0, height: Int32 = 0
            if let page = spectre.spectre_document_get_page(document, UInt32(index)) {
                spectre.spectre_page_get_size(page, &width, &height)
                spectre.spectre_page_free(page)
            }
            sizes.append(width > 0 && height > 0 ? PageSize(width: Double(width), height: Double(height))
                                                 : PageSize(width: 595.28, height: 841.89))
        }
        self.sizes = sizes
    }

    deinit {
        let document = self.document, free = spectre.spectre_document_free
        Self.withGhostscript(privateTemporaryDirectory: privateTemporaryDirectory) { free(document) }
    }

    /// Runs `body` on a thread with a 32 MiB stack, one at a time. Ghostscript's interpreter can
    /// recurse deeply on hostile input, and callers may be on small-stack worker threads.
    ///
    /// libspectre and Ghostscript print diagnostics on the process's standard output and error;
    /// while `body` runs both descriptors point at a temporary file, whose text is returned
    /// (one line) so it can go into the error message instead of corrupting piped output.
    ///
    /// With `privateTemporaryDirectory` (``Interpreters/privateTemporaryDirectory``: `quire`'s
    /// commands and its worker), Ghostscript's `$TMPDIR` (which `-dSAFER` lets a document read,
    /// write and delete in) is an empty directory made for the call and removed with whatever the
    /// document left in it; when none can be made, Ghostscript does not run and `body` is not
    /// called (the returned text says why, and the caller's status check fails).
    @discardableResult
    static func withGhostscript(privateTemporaryDirectory: Bool, _ body: () -> Void) -> String {
        ghostscript.withLock { _ in
            guard privateTemporaryDirectory else { return capturingOutput(body) }
            guard let directory = PrivateTemporaryDirectory() else {
                return "no private temporary directory for Ghostscript (\(Errno.current))"
            }
            defer { directory.remove() }
            return directory.whileTMPDIR { capturingOutput(body) }
        }
    }

    private static func capturingOutput(_ body: () -> Void) -> String {
        let capture = tmpfile()
        let savedOut = dup(STDOUT_FILENO), savedError = dup(STDERR_FILENO)
        if let capture {
            fflush(nil)
            dup2(fileno(capture), STDOUT_FILENO)
            dup2(fileno(capture), STDERR_FILENO)
        }
        defer {
            if capture != nil {
                fflush(nil)
                dup2(savedOut, STDOUT_FILENO)
                dup2(savedError, STDERR_FILENO)
            }
            close(savedOut); close(savedError)
        }
        runOnLargeStack(body)
        guard let capture else { return "" }
        defer { fclose(capture) }
        fflush(capture)
        rewind(capture)
        var buffer = [UInt8](repeating: 0, count: 2048)
        let count = fread(&buffer, 1, buffer.count, capture)
        return String(decoding: buffer[0..<count], as: UTF8.self)
            .split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }

    private static func runOnLargeStack(_ body: () -> Void) {
        withoutActuallyEscaping(body) { body in
            // A joined pthread: when this returns, the thread and its reference to `body` are gone.
            let box = Unmanaged.passRetained(ClosureBox(body))
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            pthread_attr_setstacksize(&attributes, 32 << 20)
            var thread = pthread_t()
            let started = pthread_create(&thread, &attributes, { argument in
                Unmanaged<ClosureBox>.fromOpaque(argument!).takeUnretainedValue().value()
                return nil
            }, box.toOpaque())
            pthread_attr_destroy(&attributes)
            if started == 0 {
                pthread_join(thread, nil)
            } else {
                box.takeUnretainedValue().value()  // no thread: run here rather than not at all
            }
            box.release()
        }
    }

    func pageSize(at index: Int) -> PageSize { sizes[min(max(index, 0), sizes.count - 1)] }

    func raster(page index: Int, width: Int, height: Int) throws(DocumentError) -> CairoImage {
        guard let page = spectre.spectre_document_get_page(document, UInt32(index)) else {
            throw DocumentError(kind: .damaged, path: path, reason: "page \(index + 1) cannot be read")
        }
        defer { spectre.spectre_page_free(page) }
        let size = pageSize(at: index)
        let context = spectre.spectre_render_context_new()
        defer { spectre.spectre_render_context_free(context) }
        // Ask for half a pixel more than needed so Ghostscript's rounding never yields fewer rows
        // than are read below (the buffer's height is not reported).
        spectre.spectre_render_context_set_scale(context, (Double(width) + 0.5) / size.width, (Double(height) + 0.5) / size.height)
        spectre.spectre_render_context_set_antialias_bits(context, 4, 2)
        var data: UnsafeMutablePointer<UInt8>?
        var rowLength: Int32 = 0
        var rendered: (UnsafeMutablePointer<UInt8>?, Int32) = (nil, 0)
        let render = spectre.spectre_page_render
        let diagnostics = Self.withGhostscript(privateTemporaryDirectory: privateTemporaryDirectory) {
            var pageData: UnsafeMutablePointer<UInt8>?
            var length: Int32 = 0
            // Whatever libspectre allocates holds the marker, never an earlier document's bytes.
            MallocTuning.fillingAllocations(with: Self.unwrittenByte) {
                render(page, context, &pageData, &length)
            }
            rendered = (pageData, length)
        }
        data = rendered.0
        rowLength = rendered.1
        defer { free(data) }
        let status = spectre.spectre_page_status(page)
        guard status == SPECTRE_STATUS_SUCCESS, let data, rowLength >= Int32(width * 4) else {
            throw DocumentError(kind: .damaged, path: path,
                                reason: "PostScript page \(index + 1) cannot be rendered (\((spectre.spectre_status_to_string(status).map { String(cString: $0) } ?? "error \(status.rawValue)"))\(diagnostics.isEmpty ? "" : ": " + diagnostics))")
        }
        // libspectre hands back a buffer it allocated (with malloc, uncleared) whether or not
        // Ghostscript ever output the page: a document that never calls `showpage` (a prolog,
        // a font file) leaves whatever the memory held. The page is Ghostscript's only when
        // every pixel's unused fourth byte is 0, as its display device writes it.
        let rowBytes = Int(rowLength)
        if !Self.isWholePage(data, rowLength: rowBytes, width: width, rows: height) {
            throw Self.noPages(path)
        }
        if Self.isAllZero(data, count: rowBytes * height), !pageIsOutput(page, index: index) {
            // Zeros: a fresh mapping nobody wrote (a large buffer), or a black page.
            throw Self.noPages(path)
        }
        // Ghostscript's display device writes xRGB words (cairo's RGB24); made opaque.
        return try CairoImage(copyingBGRx: UnsafeRawPointer(data), width: width, height: height, stride: rowBytes, path: path)
    }

    /// What memory holds that Ghostscript never wrote while a page renders: a value its display
    /// device never puts in a pixel's unused byte.
    static let unwrittenByte: UInt8 = 0xA5

    static func noPages(_ path: DocumentPath) -> DocumentError {
        DocumentError(kind: .damaged, path: path, reason: "the PostScript document has no pages (it never outputs one)")
    }

    /// Whether every pixel of the first `width` columns of `rows` rows has 0 in its unused
    /// (fourth) byte, as Ghostscript writes every pixel of a page it outputs.
    static func isWholePage(_ data: UnsafeMutablePointer<UInt8>, rowLength: Int, width: Int, rows: Int) -> Bool {
        for y in 0..<rows {
            let row = data + y * rowLength
            for x in 0..<width where row[x * 4 + 3] != 0 { return false }
        }
        return true
    }

    static func isAllZero(_ data: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        UnsafeBufferPointer(start: data, count: count).allSatisfy { $0 == 0 }
    }

    /// Whether Ghostscript outputs page `index` at all, asked with a small render (a buffer
    /// malloc takes from its heap, so marked with ``unwrittenByte`` unless the page is output):
    /// for a render that came back all zeros, which a fresh mapping and a black page both give.
    private func pageIsOutput(_ page: OpaquePointer, index: Int) -> Bool {
        let size = pageSize(at: index)
        // About 32×32 pixels: 4 KiB, above the per-thread cache and below the mapping threshold.
        let scale = 32 / max(size.width, size.height, 1)
        let context = spectre.spectre_render_context_new()
        defer { spectre.spectre_render_context_free(context) }
        spectre.spectre_render_context_set_scale(context, scale, scale)
        let render = spectre.spectre_page_render
        var rendered: (UnsafeMutablePointer<UInt8>?, Int32) = (nil, 0)
        Self.withGhostscript(privateTemporaryDirectory: privateTemporaryDirectory) {
            var pageData: UnsafeMutablePointer<UInt8>?
            var length: Int32 = 0
            MallocTuning.fillingAllocations(with: Self.unwrittenByte) {
                render(page, context, &pageData, &length)
            }
            rendered = (pageData, length)
        }
        guard let data = rendered.0 else { return false }
        defer { free(data) }
        let width = max(1, Int((size.width * scale).rounded(.down))), height = max(1, Int((size.height * scale).rounded(.down)))
        guard Int(rendered.1) >= width * 4 else { return false }
        return Self.isWholePage(data, rowLength: Int(rendered.1), width: width, rows: height)
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        try RasterPagePrinting.draw(pageSize(at: index), in: cr) { (width, height) throws(DocumentError) in
            try raster(page: index, width: width, height: height)
        }
    }
}

import FoundationEssentials

/// Carries a non-Sendable closure to the Ghostscript thread (through `pthread_create`'s context
/// pointer); the caller joins the thread, so it is never used concurrently.
private final class ClosureBox {
    let value: () -> Void
    init(_ value: @escaping () -> Void) { self.value = value }
}

extension RenderEngine {
    /// PostScript and EPS through libspectre (Ghostscript).
    static let postScript = RenderEngine(name: "postscript", families: [.postscript]) { (input) throws(DocumentError) in
        if let pages = try input.interpreters.host?.pages(input.file, tool: "Ghostscript", firstPageOnly: false) {
            return InterpreterIsolation.opened(pages, path: input.file.path)
        }
        return Opened(source: try PostScriptSource(file: input.file,
                                                   privateTemporaryDirectory: input.interpreters.privateTemporaryDirectory))
    }
}
