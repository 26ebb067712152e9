internal import CHEIF
#if canImport(Glibc)
import Glibc
#endif
import QuireTypes

/// A HEIF file (HEIC, AVIF, a burst or collection) read by libheif, freed with this object: its
/// top-level images (the primary first), each image's size as displayed, and its pixels — or
/// those of the thumbnail the file carries for it — with the image's rotation, mirror and crop
/// applied.
final class HEIFFile {
    let path: DocumentPath
    private let api: quire_heif_api
    private let context: OpaquePointer
    /// The file libheif reads from (its descriptor stays open while this lives).
    private let file: InputFile
    /// The reader's state, freed with the context.
    private let state: UnsafeMutableRawPointer?
    /// The top-level images, the primary first.
    let images: [heif_item_id]
    /// Each image's size as displayed.
    let sizes: [(width: Int, height: Int)]
    /// Most images taken as pages (a burst of thousands is shown in part).
    static let maximumImages = 1000

    /// The types libheif reads: HEIF and HEIC stills and sequences, AVIF.
    static let mimeTypes: Set<String> = ["image/heif", "image/heic", "image/heif-sequence", "image/heic-sequence", "image/avif"]

    /// Whether `type` is one of libheif's and libheif is installed.
    static func applies(to type: ContentType) -> Bool {
        mimeTypes.contains(type.mimeType) && LazyLibraries.heifIsInstalled
    }

    /// - Parameter limits: the primary image's size, read from the boxes (``HEIFImageSize``), is
    ///   checked against the pixel limit before libheif reads the file (libheif would refuse a
    ///   side past 32,767 as an error of its own, and the limit's words would be lost).
    init(file: InputFile, limits: RenderLimits) throws(DocumentError) {
        let api = try LazyLibraries.heif(file.path)
        if let head = try? file.read(upTo: HEIFImageSize.headLimit), let size = HEIFImageSize(head: head) {
            try limits.checkPixels(size.width, size.height, path: file.path)
        }
        var message = [CChar](repeating: 0, count: 256)
        var state: UnsafeMutableRawPointer?
        // Read through the file's descriptor, as libheif asks (kept open by `file`, held here).
        let opened = withUnsafePointer(to: api) { api in
            quire_heif_open(api, file.descriptor.rawValue, file.size, &state, &message, message.count)
        }
        guard let opened else {
            throw DocumentError(kind: .damaged, path: file.path, reason: "not a readable HEIF image (\(Self.text(message)))")
        }
        self.file = file
        self.state = state
        self.api = api
        context = opened
        path = file.path
        var ids = [heif_item_id](repeating: 0, count: Self.maximumImages)
        let count = withUnsafePointer(to: api) { api in quire_heif_images(api, opened, &ids, Int32(ids.count)) }
        var images: [heif_item_id] = [], sizes: [(width: Int, height: Int)] = []
        for id in ids.prefix(Int(count)) {
            var width: Int32 = 0, height: Int32 = 0
            let known = withUnsafePointer(to: api) { api in quire_heif_size(api, opened, id, &width, &height) }
            if known != 0 {
                images.append(id)
                sizes.append((Int(width), Int(height)))
            }
        }
        self.images = images
        self.sizes = sizes
        guard !images.isEmpty else {
            throw DocumentError(kind: .damaged, path: file.path, reason: "not a readable HEIF image (no image in it)")
        }
    }

    deinit { withUnsafePointer(to: api) { quire_heif_close($0, context, state) } }

    /// Image `index` (of ``images``) upright, or the thumbnail the file carries for it when
    /// `thumbnailSide` > 0 and its longest side is at least that.
    func image(_ index: Int, thumbnailSide: Int = 0, limits: RenderLimits) throws(DocumentError) -> CairoImage {
        var width: Int32 = 0, height: Int32 = 0
        var pixels: UnsafeMutablePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 256)
        let context = self.context
        let status = withUnsafePointer(to: api) { api in
            quire_heif_decode(api, context, images[index], Int32(clamping: thumbnailSide), UInt64(max(0, limits.maximumImagePixels)),
                              &width, &height, &pixels, &message, message.count)
        }
        switch status {
        case QUIRE_HEIF_OK:
            guard let pixels else { break }
            defer { free(pixels) }
            return try CairoImage(copyingRGBA: pixels, width: Int(width), height: Int(height), path: path)
        case QUIRE_HEIF_TOO_LARGE:
            throw limits.pixelRefusal(Int(width), Int(height), path: path)
        case QUIRE_HEIF_NO_MEMORY:
            throw DocumentError(kind: .limitExceeded, path: path, reason: "not enough memory to decode the HEIF image")
        default:
            break
        }
        throw DocumentError(kind: .damaged, path: path, reason: "not a readable HEIF image (\(Self.text(message)))")
    }

    private static func text(_ message: [CChar]) -> String {
        let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.isEmpty ? "libheif refused it" : String(text.prefix(200).map { $0.isNewline ? " " : $0 })
    }
}
