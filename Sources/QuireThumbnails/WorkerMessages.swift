import QuireTypes
import QuireRenderService

/// One file for a worker: the path to open, the URI to record and the edge sizes wanted.
struct WorkerRequest: Sendable {
    var path: [UInt8]
    var uri: String
    var sizes: [Int]
    var maximumFileSize: Int64

    /// The request frame (the render service's `thumbnail` kind, then this request).
    var frame: [UInt8] {
        var writer = WireWriter()
        writer.integer(RenderRequestKind.thumbnail.rawValue)
        writer.data(path)
        writer.string(uri)
        writer.integer(maximumFileSize)
        writer.integer(Int64(sizes.count))
        for size in sizes { writer.integer(Int64(size)) }
        return writer.frame
    }

    init(path: [UInt8], uri: String, sizes: [Int], maximumFileSize: Int64) {
        self.path = path
        self.uri = uri
        self.sizes = sizes
        self.maximumFileSize = maximumFileSize
    }

    init(payload: [UInt8]) throws(WireReader.Malformed) {
        var reader = WireReader(payload)
        path = try reader.data()
        uri = try reader.string()
        maximumFileSize = try reader.integer()
        let count = try reader.integer()
        guard (0...8).contains(count) else { throw WireReader.Malformed() }
        sizes = []
        for _ in 0..<count { sizes.append(Int(try reader.integer())) }
    }
}

/// A worker's answer for one file.
enum WorkerResponse: Sendable {
    /// Thumbnails (PNG with freedesktop keys) per edge size, with the mtime/size the worker saw.
    case rendered(modificationTime: Int64, size: Int64, mimeType: String, pngBySize: [Int: [UInt8]])
    /// The file could not be thumbnailed. `modificationTime`/`size` are -1 when the file could
    /// not even be opened.
    case failed(ThumbnailFailure, modificationTime: Int64, size: Int64)

    var frame: [UInt8] {
        var writer = WireWriter()
        switch self {
        case let .rendered(mtime, size, mime, pngs):
            writer.integer(0)
            writer.integer(mtime)
            writer.integer(size)
            writer.string(mime)
            writer.integer(Int64(pngs.count))
            for (edge, png) in pngs.sorted(by: { $0.key < $1.key }) {
                writer.integer(Int64(edge))
                writer.data(png)
            }
        case let .failed(failure, mtime, size):
            writer.integer(1)
            writer.string(failure.kind.rawValue)
            writer.string(failure.reason)
            writer.string(Self.wireName(failure.remedy))
            writer.integer(mtime)
            writer.integer(size)
        }
        return writer.frame
    }

    init(rendered mtime: Int64, size: Int64, mimeType: String, pngBySize: [Int: [UInt8]]) {
        self = .rendered(modificationTime: mtime, size: size, mimeType: mimeType, pngBySize: pngBySize)
    }

    init(payload: [UInt8]) throws(WireReader.Malformed) {
        var reader = WireReader(payload)
        switch try reader.integer() {
        case 0:
            let mtime = try reader.integer()
            let size = try reader.integer()
            let mime = try reader.string()
            let count = try reader.integer()
            guard (0...8).contains(count) else { throw WireReader.Malformed() }
            var pngs: [Int: [UInt8]] = [:]
            for _ in 0..<count {
                let edge = Int(try reader.integer())
                pngs[edge] = try reader.data()
            }
            self = .rendered(modificationTime: mtime, size: size, mimeType: mime, pngBySize: pngs)
        case 1:
            let kind = ThumbnailFailure.Kind(rawValue: try reader.string())
            let reason = try reader.string()
            let remedy = Self.remedy(wireName: try reader.string())
            self = .failed(ThumbnailFailure(kind, reason, remedy: remedy),
                           modificationTime: try reader.integer(), size: try reader.integer())
        default:
            throw WireReader.Malformed()
        }
    }
}

extension WorkerResponse {
    /// Only limits cross the pipe: the other remedies are decided by the parent.
    static func wireName(_ remedy: Remedy?) -> String {
        if case .raise(let limit) = remedy { return limit.rawValue }
        return ""
    }

    static func remedy(wireName: String) -> Remedy? {
        Limit(rawValue: wireName).map(Remedy.raise)
    }
}
