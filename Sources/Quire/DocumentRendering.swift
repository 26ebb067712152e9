import QuireGIO
import QuireRender
import QuireRenderService
import QuireSystem

/// Previews, thumbnails and PDF conversion of a ``Document``.
extension Document {
    /// A renderer for this document's family (PDF, PostScript, SVG, image, text, container).
    /// - Throws: ``DocumentError`` (`unsupported`, `damaged`, `passwordRequired`, `limitExceeded`).
    /// `limits` defaults to the document's ``Document/limits``.
    /// `firstPageOnly`: only page 1 will be drawn (an office document's page 1 from LibreOffice's
    /// layout, not an export of every page; ``Renderer/pageCountIsKnown`` may then be false).
    /// `developRaw`: a camera RAW file's sensor data developed at full size instead of its
    /// embedded preview (`preview --full`).
    public func renderer(password: String? = nil, limits: RenderLimits? = nil, firstPageOnly: Bool = false,
                         developRaw: Bool = false) throws(DocumentError) -> Renderer {
        try Renderer(file: file, contentType: contentType, password: password, limits: limits ?? self.limits,
                     firstPageOnly: firstPageOnly, csvAsSpreadsheet: csvAsSpreadsheet, developRaw: developRaw,
                     interpreters: interpreters)
    }

    /// Renders page `page` (0-based) of the document — the Quick Look preview.
    ///
    /// ```swift
    /// let document = try Document(path: DocumentPath("report.pdf"))
    /// let image = try await document.preview(page: 0, size: .fit(width: 800, height: 600))
    /// let png = try PNGEncoder.encode(image)
    /// ```
    ///
    /// Rendering runs on a thread of its own, not on Swift's cooperative pool, so a caller's
    /// other tasks (a viewer's UI work) keep running while a page renders.
    ///
    /// Drawn by the render service in this process (``renderService()``), with the requests a
    /// viewer sends its worker: the document opened to be drawn, then the page at its pixel size.
    public func preview(page: Int = 0, size: RenderSize = .natural, password: String? = nil) async throws(DocumentError) -> RenderedImage {
        try await BlockingWork.run { () throws(DocumentError) in
            var request = self.renderRequest(password: password, layout: .paper)
            request.drawsOnly = true
            let service = self.renderService()
            defer { service.stop() }
            let facts: OpenedDocument
            do throws(RenderProblem) { facts = try service.open(request) } catch { throw self.error(from: error) }
            guard facts.pageSizes.indices.contains(page) else {
                throw DocumentError(kind: .limitExceeded, path: self.path,
                                    reason: "there is no page \(page + 1) (the document has \(facts.pageCount) page\(facts.pageCount == 1 ? "" : "s"))")
            }
            let (width, height) = facts.pixelSize(page: page, size: size, allowUpscaling: true, limits: self.limits)
            do throws(RenderProblem) { return try service.renderPage(PageRequest(document: request, page: page, width: width, height: height)) } catch {
                throw self.error(from: error)
            }
        }
    }

    /// The freedesktop thumbnail of the first page: longest side `size` (raster images are not
    /// enlarged), with the standard's tEXt metadata. ``Thumbnail/png`` is the file.
    ///
    /// Drawn by the render service in this process (``renderService(software:)``), with the
    /// request a batch's worker and `quire thumbnail FILE OUT` answer: the same PNG, keys and all.
    /// - Parameter uri: `Thumb::URI`; nil derives the canonical `file://` URI from the path
    ///   (GLib's, as the thumbnail cache and file managers compute it).
    public func thumbnail(size: Int = 256, uri: String? = nil, password: String? = nil,
                          software: String = "Quire") async throws(DocumentError) -> Thumbnail {
        try await BlockingWork.run { () throws(DocumentError) in
            guard (1...4096).contains(size) else {
                throw DocumentError(kind: .limitExceeded, path: self.path, reason: "thumbnail size \(size) is outside 1…4096")
            }
            guard let uri = uri ?? FileURI.uri(forPath: self.path.bytes) else {
                throw DocumentError(kind: .unsupported, path: self.path, reason: "the path cannot be written as a file:// URI")
            }
            let service = self.renderService(software: software)
            defer { service.stop() }
            let request = ThumbnailRequest(path: self.path.bytes, uri: uri, sizes: [size],
                                           maximumFileSize: max(self.file.size, 1), password: password)
            let reply: ThumbnailReply
            do throws(RenderProblem) { reply = try service.thumbnail(request) } catch { throw self.error(from: error) }
            switch reply {
            case .rendered(_, _, _, let pngs):
                guard let png = pngs[size] else {
                    throw DocumentError(kind: .damaged, path: self.path, reason: "no thumbnail was drawn")
                }
                do throws(PNGDecoder.DecodingError) { return try Thumbnail(png: png) } catch {
                    throw DocumentError(kind: .damaged, path: self.path, reason: error.description)
                }
            case .failed(let failure, _, _):
                if let error = failure.underlying.error as? DocumentError { throw error }
                let kind: DocumentError.Kind = switch failure.kind {
                case .tooLarge: .limitExceeded
                case .unsupported: .unsupported
                default: .damaged
                }
                throw DocumentError(kind: kind, path: self.path, reason: failure.reason)
            }
        }
    }

    /// The document converted to PDF (what printing sends for text, images and SVG).
    /// `pages` are 0-based; nil means all.
    /// Exported by the render service in this process, as `quire preview --format pdf` exports.
    public func pdfData(pages: [Int]? = nil, password: String? = nil) async throws(DocumentError) -> [UInt8] {
        try await BlockingWork.run { () throws(DocumentError) in
            let service = self.renderService()
            defer { service.stop() }
            do throws(RenderProblem) { return try service.exportPDF(self.renderRequest(password: password, layout: .paper), pages: pages) } catch {
                throw self.error(from: error)
            }
        }
    }
}
