import QuireTypes

/// The answer to a ``ThumbnailRequest`` (``DocumentReply/thumbnails(_:)``), in its own frame
/// (its tags 0 and 1 are apart from the other replies').
package enum ThumbnailReply: Sendable {
    /// Thumbnails (PNG with freedesktop keys) per edge size, with the mtime/size the worker saw.
    case rendered(modificationTime: Int64, size: Int64, mimeType: String, pngBySize: [Int: [UInt8]])
    /// The file could not be thumbnailed. `modificationTime`/`size` are -1 when the file could
    /// not even be opened.
    case failed(ThumbnailFailure, modificationTime: Int64, size: Int64)

    package var frame: [UInt8] {
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

    package init(payload: [UInt8]) throws(WireReader.Malformed) {
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

extension ThumbnailReply {
    /// Only limits cross the pipe: the other remedies are decided by the parent.
    static func wireName(_ remedy: Remedy?) -> String {
        if case .raise(let limit) = remedy { return limit.rawValue }
        return ""
    }

    static func remedy(wireName: String) -> Remedy? {
        Limit(rawValue: wireName).map(Remedy.raise)
    }
}
