import QuireRender
import QuireTypes

/// Thumbnails (``RenderRequest/thumbnail(_:)``): one file at the sizes asked for, drawn by
/// ``RendererThumbnailSource`` with the freedesktop keys written in — a batch's file in a
/// worker, `quire thumbnail FILE OUT`'s in the command's own process (its file lent).
extension DocumentSession {
    func thumbnails(_ request: ThumbnailRequest) -> ThumbnailReply {
        let path = DocumentPath(bytes: request.path)
        hooks.beforeHandling(path)
        if let probe = SandboxProbe(environment: hooks.environment) { return probe.run() }
        let file: InputFile, type: ContentType
        if let lent = lent(path) {
            (file, type) = lent
        } else {
            do {
                file = try InputFile(path: path, maximumSize: request.maximumFileSize)
            } catch {
                return .failed(ThumbnailFailure(error), modificationTime: -1, size: -1)
            }
            do { type = try ContentType.detect(file) } catch {
                return .failed(ThumbnailFailure(error), modificationTime: file.modificationTime.seconds, size: file.size)
            }
        }
        let mtime = file.modificationTime.seconds
        // A worker renders file after file: poppler's parameters are built once for the process
        // (for Splash and cairo documents alike), not once per PDF. A one-shot command draws one
        // file and does not load the Splash library for that.
        if servesManyFiles, type.family == .pdf { _ = SplashPDFDocument.prepare() }
        do {
            let rendered = try RendererThumbnailSource(limits: limits, interpreters: interpreters)
                .renderThumbnails(of: file, type: type, sizes: request.sizes, password: request.password)
            let metadata = ThumbnailMetadata(uri: request.uri, modificationTime: mtime, size: file.size,
                                             mimeType: type.mimeType, software: software,
                                             imageWidth: rendered.imageWidth, imageHeight: rendered.imageHeight,
                                             pageCount: rendered.pageCount)
            var out: [Int: [UInt8]] = [:]
            for (edge, png) in rendered.pngBySize {
                guard let tagged = PNGChunks.inserting(text: metadata.textEntries, into: png) else {
                    return .failed(ThumbnailFailure(.encoding, "the renderer produced an invalid PNG"),
                                   modificationTime: mtime, size: file.size)
                }
                out[edge] = tagged
            }
            return .rendered(modificationTime: mtime, size: file.size, mimeType: type.mimeType, pngBySize: out)
        } catch {
            return .failed(error, modificationTime: mtime, size: file.size)
        }
    }
}
