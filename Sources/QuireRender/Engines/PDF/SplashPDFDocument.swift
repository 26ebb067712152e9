#if canImport(Glibc)
import Glibc
#endif
internal import CPopplerSplash
import FoundationEssentials
import QuireSystem
import QuireTypes

/// A PDF opened for poppler's **Splash** backend (libpoppler-cpp's page renderer, the same
/// poppler as ``PDFDocument``), for raster thumbnails of pages that poppler's cairo backend draws
/// very slowly — a function-based (type 1) shading whose domain maps far beyond the page takes
/// cairo minutes and Splash milliseconds. Previews and vector output keep cairo.
///
/// libpoppler-cpp is C++: Quire reaches it through its own small shim library
/// (`libQuirePopplerSplash.so`, beside the `quire` executable or in `../lib/quire/`), loaded with
/// `dlopen` on first use, so a process that never needs Splash maps neither.
///
/// Not thread-safe, so not `Sendable`: use a document where it was opened.
public final class SplashPDFDocument {
    /// The shim's file name.
    public static let libraryName = "libQuirePopplerSplash.so"

    private struct Loaded: Sendable {
        var api: quire_splash_api?
        var problem: String?
    }

    private static let loaded: Loaded = {
        var tried: [String] = []
        for path in candidatePaths() {
            var api = quire_splash_api(open: { _, _, _ in 0 }, page_count: { _ in 0 }, page_size: { _, _, _, _ in 0 },
                                       render: { _, _, _, _, _ in 0 }, close: { _ in }, info: { _, _ in 0 },
                                       info_text: { _, _ in nil }, free_text: { _ in }, params_held: { 0 },
                                       hold_params: { 0 })
            var error: UnsafePointer<CChar>?
            if quire_splash_api_load(path, &api, &error) != 0 { return Loaded(api: api, problem: nil) }
            tried.append(error.map { String(cString: $0) } ?? path)
        }
        return Loaded(api: nil, problem: "poppler's Splash renderer is not available (" + tried.joined(separator: "; ") + ")")
    }()

    /// Where the shim is looked for: beside the running executable (a build directory, or an
    /// installation that keeps them together), then `../lib/quire/` (the `make install` layout).
    static func candidatePaths() -> [String] {
        let directory = DirectoryPath.parent(of: ProcessControl.ownExecutable)
        return [directory + "/" + libraryName, DirectoryPath.parent(of: directory) + "/lib/quire/" + libraryName]
    }

    /// Whether the Splash renderer can be used (loads the shim on first call).
    public static var isAvailable: Bool { loaded.api != nil }

    /// Loads the shim now if it is not loaded yet; returns ``isAvailable``. It then builds
    /// poppler's process-wide parameters (font and encoding tables) once and holds them for the
    /// life of the process, for poppler-glib documents (``PDFDocument``, ``Renderer``) as well:
    /// without a document open, poppler rebuilds them for every document it opens. Processes that
    /// open many PDFs (thumbnail workers, `quire info` over many files, fuzzing) call it before
    /// their first poppler document. (Loading alone does not build them: the first document
    /// opened through the shim does, outside the dynamic loader's lock.)
    @discardableResult
    public static func prepare() -> Bool {
        guard let api = loaded.api else { return false }
        _ = api.hold_params()
        return true
    }

    /// Whether poppler's process-wide parameters are held for the life of the process (they are
    /// after ``prepare()`` or the first document opened through the shim); false when the shim
    /// is not available.
    package static var holdsPopplerParameters: Bool { loaded.api.map { $0.params_held() != 0 } ?? false }

    /// Why it cannot, when it cannot.
    public static var unavailableReason: String? { loaded.problem }

    private let api: quire_splash_api
    private let handle: OpaquePointer
    /// The path the document was opened from (for messages).
    public let path: DocumentPath
    /// Number of pages.
    public let pageCount: Int

    /// Opens the PDF in `file` through its open descriptor (`/proc/self/fd/N`), so the file
    /// checked is the file read.
    /// - Throws: ``DocumentError``: `unsupported` when the shim is not installed,
    ///   `passwordRequired`, `damaged`.
    public init(file: InputFile, password: String? = nil) throws(DocumentError) {
        path = file.path
        guard let api = Self.loaded.api else {
            throw DocumentError(kind: .unsupported, path: file.path, reason: Self.loaded.problem ?? "no Splash renderer")
        }
        self.api = api
        var document: OpaquePointer?
        let status = api.open(file.procPath, password, &document)
        guard status == Int32(QUIRE_SPLASH_OK), let document else {
            switch Int(status) {
            case Int(QUIRE_SPLASH_PASSWORD):
                throw DocumentError(kind: .passwordRequired, path: file.path,
                                    reason: password == nil ? "PDF is password-protected" : "the password is not correct for this PDF",
                                    remedy: password == nil ? .password : nil)
            case Int(QUIRE_SPLASH_NO_MEMORY):
                throw DocumentError(kind: .limitExceeded, path: file.path, reason: "out of memory while opening the PDF")
            default:
                throw DocumentError(kind: .damaged, path: file.path, reason: "not a readable PDF (poppler could not open it)")
            }
        }
        handle = document
        pageCount = Int(api.page_count(document))
        if pageCount < 1 {
            // Every stored property is set: deinit closes the document (closing it here too
            // freed it twice).
            throw DocumentError(kind: .damaged, path: file.path, reason: "the PDF has no pages")
        }
    }

    deinit { api.close(handle) }

    /// The crop box of page `index` in points, as displayed (rotation applied).
    public func pageSize(at index: Int) -> PageSize? {
        var width = 0.0, height = 0.0
        guard api.page_size(handle, Int32(index), &width, &height) == Int32(QUIRE_SPLASH_OK) else { return nil }
        return PageSize(width: width, height: height)
    }

    /// The info card's facts, as ``PDFDocument/info`` reads them through poppler-glib (the same
    /// poppler underneath); nil when poppler cannot tell.
    public func info() -> PDFInfo? {
        var facts = quire_splash_facts()
        guard api.info(handle, &facts) == Int32(QUIRE_SPLASH_OK) else { return nil }
        let full: UInt32 = 0xFF
        func text(_ key: String) -> String? {
            guard let pointer = api.info_text(handle, key) else { return nil }
            defer { api.free_text(pointer) }
            let value = String(cString: pointer).trimmingWhitespaceAndNewlines()
            return value.isEmpty ? nil : value
        }
        func date(_ seconds: Int64) -> Date? { seconds > 0 ? Date(timeIntervalSince1970: TimeInterval(seconds)) : nil }
        return PDFInfo(
            pageCount: Int(facts.page_count), firstPageSize: pageSize(at: 0),
            title: text("Title"), author: text("Author"), subject: text("Subject"), keywords: text("Keywords"),
            creator: text("Creator"), producer: text("Producer"),
            creationDate: date(facts.creation_date), modificationDate: date(facts.modification_date),
            version: "PDF-\(facts.version_major).\(facts.version_minor)",
            isEncrypted: facts.permissions & full != full, isPasswordProtected: false,
            permissionsRestricted: facts.permissions & full != full)
    }

    /// ``info()`` of the PDF in `file` opened without a password; nil when the shim is not
    /// installed or the document does not open that way (the caller then asks poppler-glib, whose
    /// errors and messages are the ones Quire reports). Used by `quire info`: libpoppler-cpp
    /// loads without GLib's object system, cairo and their libraries (~11 M instructions less).
    package static func info(of file: InputFile) -> PDFInfo? {
        guard isAvailable, let document = try? SplashPDFDocument(file: file) else { return nil }
        return document.info()
    }

    /// Renders page `index` (0-based) on white paper at `size`, never above
    /// `limits.maximumOutputPixels` — the same pixel size ``Renderer`` gives the cairo path.
    public func render(page index: Int = 0, size: RenderSize, limits: RenderLimits = .standard) throws(DocumentError) -> RenderedImage {
        guard index >= 0, index < pageCount, let page = pageSize(at: index) else {
            throw DocumentError(kind: .damaged, path: path, reason: "page \(index + 1) cannot be read")
        }
        var (width, height) = size.pixels(for: PageSize(width: max(page.width, 1), height: max(page.height, 1)),
                                          isRaster: false, upscale: true)
        let pixels = Double(width) * Double(height)
        if pixels > Double(limits.maximumOutputPixels) {
            let shrink = (Double(limits.maximumOutputPixels) / pixels).squareRoot()
            width = max(1, Int(Double(width) * shrink))
            height = max(1, Int(Double(height) * shrink))
        }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let status = rgba.withUnsafeMutableBufferPointer { buffer in
            api.render(handle, Int32(index), Int32(width), Int32(height), buffer.baseAddress!)
        }
        switch Int(status) {
        case Int(QUIRE_SPLASH_OK):
            return RenderedImage(width: width, height: height, pixels: rgba)
        case Int(QUIRE_SPLASH_NO_MEMORY):
            throw DocumentError(kind: .limitExceeded, path: path, reason: "out of memory while rendering page \(index + 1)")
        default:
            throw DocumentError(kind: .damaged, path: path, reason: "page \(index + 1) cannot be rendered")
        }
    }
}
