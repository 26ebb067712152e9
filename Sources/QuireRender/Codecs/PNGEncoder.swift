internal import CPNG
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Encodes ``RenderedImage``s as 8-bit RGBA, non-interlaced PNG with libpng.
///
/// Uses zlib level 1 and the SUB filter by default: about three times faster than cairo's PNG
/// writer (level 6, adaptive filters) for a few percent more bytes — thumbnails are written far
/// more often than they are read from disk.
public enum PNGEncoder {
    /// Why encoding failed (libpng's message).
    public struct EncodingError: Error, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { "PNG encoding failed: \(message)" }
    }

    /// The PNG file bytes for `image` (no text chunks: a thumbnail's freedesktop keys are
    /// inserted by ``PNGChunks/inserting(text:into:)``, the one way they are written).
    /// - Parameter compressionLevel: zlib level 0…9 (default 1).
    public static func encode(_ image: RenderedImage, compressionLevel: Int = 1) throws(EncodingError) -> [UInt8] {
        var buffer = quire_png_buffer(data: nil, length: 0, capacity: 0)
        var error = quire_png_error()
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            quire_png_encode_rgba(pixels.baseAddress, Int32(image.width), Int32(image.height),
                                  image.width * 4, Int32(max(0, min(9, compressionLevel))), PNG_FILTER_SUB,
                                  nil, nil, 0, &buffer, &error)
        }
        defer { free(buffer.data) }
        guard status == 0, let data = buffer.data else {
            let message = withUnsafeBytes(of: error.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw EncodingError(message: message.isEmpty ? "libpng error" : message)
        }
        return Array(UnsafeBufferPointer(start: data, count: buffer.length))
    }

    /// `string` with NUL characters removed (C strings end at the first).
}
