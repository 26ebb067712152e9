#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireTypes
import QuireRender
import QuireSystem
import QuireRenderService

/// The thumbnail side of the render service's worker: answers `thumbnail` requests (one file,
/// its thumbnails at the sizes asked for, with the freedesktop keys written in) inside the
/// worker process that ``RenderWorker`` runs.
public struct ThumbnailWorker: ThumbnailRequestHandling {
    let renderer: any ThumbnailRendering

    public init(renderer: any ThumbnailRendering) {
        self.renderer = renderer
    }

    public func replyFrame(to payload: [UInt8], hooks: WorkerTestHooks) -> [UInt8]? {
        guard let request = try? WorkerRequest(payload: payload) else { return nil }
        hooks.beforeHandling(DocumentPath(bytes: request.path))
        if let probe = SandboxProbe(environment: hooks.environment) { return probe.run().frame }
        return handle(request).frame
    }

    func handle(_ request: WorkerRequest) -> WorkerResponse {
        let path = DocumentPath(bytes: request.path)
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
            let rendered = try renderer.renderThumbnails(of: file, type: type, sizes: request.sizes)
            let metadata = ThumbnailMetadata(uri: request.uri, modificationTime: mtime, size: file.size,
                                             mimeType: type.mimeType, software: QuireThumbnailsInfo.software,
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
        } catch let failure as ThumbnailFailure {
            return .failed(failure, modificationTime: mtime, size: file.size)
        } catch {
            return .failed(ThumbnailFailure(.render, String(describing: error)), modificationTime: mtime, size: file.size)
        }
    }
}
