#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireTypes
import QuireSystem

/// A freedesktop thumbnail (Thumbnail Managing Standard 0.9): the image, fitted so its longest
/// side equals the requested size, and the tEXt metadata that goes with it.
///
/// Pages (PDF, PostScript, SVG, text) are rendered to exactly `size` on the longest side.
/// Raster images and embedded previews are never enlarged: an image smaller than `size` keeps
/// its own size, as the standard recommends (a thumbnail larger than its original only blurs).
public struct Thumbnail: Sendable {
    public let image: RenderedImage
    /// `Thumb::URI`, `Thumb::MTime`, `Thumb::Size`, `Thumb::Mimetype`, `Software`, and
    /// `Thumb::Image::Width/Height` or `Thumb::Document::Pages` where known.
    public let metadata: [PNGEncoder.TextChunk]

    /// Bytes of text laid out for a text thumbnail (the first page needs far less).
    static let textBytes = 16 * 1024

    /// Renders the first page's thumbnail.
    /// - Parameters:
    ///   - size: the bounding square (128 normal, 256 large, 512 x-large, 1024 xx-large).
    ///   - uri: `Thumb::URI`; nil derives the canonical `file://` URI from the path.
    ///   - software: the `Software` value.
    public static func make(file: InputFile, contentType: ContentType, size: Int = 256, uri: String? = nil,
                            password: String? = nil, software: String = "Quire",
                            limits: RenderLimits = .standard) throws(DocumentError) -> Thumbnail {
        guard size > 0, size <= 4096 else {
            throw DocumentError(kind: .limitExceeded, path: file.path, reason: "thumbnail size \(size) is outside 1…4096")
        }
        var text = [
            PNGEncoder.TextChunk("Thumb::URI", uri ?? fileURI(for: file.path)),
            PNGEncoder.TextChunk("Thumb::MTime", String(file.modificationTime.seconds)),
            PNGEncoder.TextChunk("Thumb::Size", String(file.size)),
            PNGEncoder.TextChunk("Thumb::Mimetype", contentType.mimeType),
            PNGEncoder.TextChunk("Software", software),
        ]
        // A first page that is one large image, or has shadings cairo takes seconds and
        // gigabytes on, is drawn as the batch workers draw it (one function shading: 3.6 s and
        // 1.6 GB through cairo, 0.03 s and 24 MB through Splash).
        if contentType.family == .pdf, password == nil,
           let drawn = try PDFFirstPageFastPath.draw(file, sizes: [size], limits: limits), let image = drawn.images[size] {
            text.append(PNGEncoder.TextChunk("Thumb::Document::Pages", String(drawn.pageCount)))
            return Thumbnail(image: image, metadata: text)
        }
        let renderer = try Renderer(file: file, contentType: contentType, password: password, limits: limits,
                                    textByteLimit: textBytes)
        let image = try renderer.render(page: 0, size: .longestSide(size), allowUpscaling: false)
        switch contentType.family {
        case .image, .svg:
            let page = renderer.pageSize(at: 0)
            text.append(PNGEncoder.TextChunk("Thumb::Image::Width", String(Int(page.width.rounded()))))
            text.append(PNGEncoder.TextChunk("Thumb::Image::Height", String(Int(page.height.rounded()))))
        case .pdf, .postscript:
            text.append(PNGEncoder.TextChunk("Thumb::Document::Pages", String(renderer.pageCount)))
        default:
            break
        }
        return Thumbnail(image: image, metadata: text)
    }

    /// The thumbnail as an 8-bit RGBA non-interlaced PNG with its tEXt chunks.
    public func pngData() throws(PNGEncoder.EncodingError) -> [UInt8] {
        try PNGEncoder.encode(image, text: metadata)
    }

    /// The canonical `file:///` URI of `path` (made absolute against the working directory,
    /// `.` and `..` removed, bytes outside RFC 3986's unreserved set and `/` percent-encoded),
    /// as the standard's MD5 cache names require.
    public static func fileURI(for path: DocumentPath) -> String {
        var bytes = path.bytes
        if bytes.first != UInt8(ascii: "/") {
            bytes = workingDirectoryBytes() + [UInt8(ascii: "/")] + bytes
        }
        var parts: [ArraySlice<UInt8>] = []
        for part in bytes.split(separator: UInt8(ascii: "/")) {
            if part.elementsEqual([UInt8(ascii: ".")]) { continue }
            if part.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        let hexDigits = Array("0123456789ABCDEF".utf8)
        var uri = Array("file://".utf8)
        for part in parts {
            uri.append(UInt8(ascii: "/"))
            for byte in part {
                if isUnreserved(byte) {
                    uri.append(byte)
                } else {
                    uri += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
                }
            }
        }
        if parts.isEmpty { uri.append(UInt8(ascii: "/")) }
        return String(decoding: uri, as: UTF8.self)
    }

    /// RFC 3986's unreserved characters: ALPHA, DIGIT, `-`, `.`, `_`, `~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// The working directory's exact bytes (getcwd), so a directory whose name is not UTF-8
    /// still gives the right URI.
    private static func workingDirectoryBytes() -> [UInt8] {
        var capacity = 4096
        while capacity <= 1 << 20 {
            var buffer = [CChar](repeating: 0, count: capacity)
            if getcwd(&buffer, capacity) != nil {
                return buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            }
            guard errno == ERANGE else { break }
            capacity *= 4
        }
        return []
    }

    /// The path bytes of a `file:` URI (percent-decoded), or nil for other schemes or a
    /// remote host.
    public static func path(fromFileURI uri: String) -> DocumentPath? {
        guard uri.lowercased().hasPrefix("file://") else { return nil }
        var rest = Array(uri.utf8.dropFirst(7))
        // file://localhost/path and file:///path; any other host is not this machine.
        if let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
            let host = String(decoding: rest[..<slash], as: UTF8.self)
            guard host.isEmpty || host == "localhost" else { return nil }
            rest = Array(rest[slash...])
        } else {
            return nil
        }
        // The query and fragment are not part of the path.
        if let end = rest.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            rest = Array(rest[..<end])
        }
        let out = PercentEncoding.decode(String(decoding: rest, as: UTF8.self))
        // A NUL byte cannot be in a path.
        guard !out.contains(0), !out.isEmpty else { return nil }
        return DocumentPath(bytes: out)
    }
}
