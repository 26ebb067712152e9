import QuireRender
import QuireTypes

/// The batch's thumbnails (``RenderRequest/thumbnail(_:)``): one file at the sizes asked for,
/// drawn by ``RendererThumbnailSource`` with the freedesktop keys written in.
extension DocumentSession {
    func thumbnails(_ request: ThumbnailRequest) -> ThumbnailReply {
        let path = DocumentPath(bytes: request.path)
        hooks.beforeHandling(path)
        if let probe = SandboxProbe(environment: hooks.environment) { return probe.run() }
        let file: InputFile
        do {
            file = try InputFile(path: path, maximumSize: request.maximumFileSize)
        } catch {
            return .failed(ThumbnailFailure(error), modificationTime: -1, size: -1)
        }
        let mtime = file.modificationTime.seconds
        let type: ContentType
        do { type = try ContentType.detect(file) } catch {
            return .failed(ThumbnailFailure(error), modificationTime: mtime, size: file.size)
        }
        do {
            let rendered = try RendererThumbnailSource(limits: limits).renderThumbnails(of: file, type: type, sizes: request.sizes)
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
