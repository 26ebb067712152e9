internal import CPNG

/// Decodes PNG files into ``RenderedImage``s (straight 8-bit RGBA) with libpng: a thumbnail
/// the render service answered as its PNG (``Thumbnail/init(png:)``).
public enum PNGDecoder {
    /// Why decoding failed (libpng's message, or the size).
    public struct DecodingError: Error, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { "PNG decoding failed: \(message)" }
    }

    /// The image in `png`, if it has at most `maximumPixels` pixels.
    public static func decode(_ png: [UInt8], maximumPixels: Int = RenderLimits.standard.maximumOutputPixels) throws(DecodingError) -> RenderedImage {
        // libpng reads the bytes until the image is finished: one borrow of them for both steps.
        let decoded = png.withUnsafeBufferPointer { bytes -> Result<RenderedImage, DecodingError> in
            var image = png_image()
            var error = quire_png_error()
            guard quire_png_decode_begin(bytes.baseAddress, bytes.count, &image, &error) == 0 else {
                return .failure(DecodingError(message: Self.message(error)))
            }
            let width = Int(image.width), height = Int(image.height)
            let (area, overflow) = width.multipliedReportingOverflow(by: height)
            guard width > 0, height > 0, !overflow, area <= maximumPixels else {
                _ = quire_png_decode_finish(&image, nil, &error)
                return .failure(DecodingError(message: "the image is \(width)×\(height) pixels, more than \(maximumPixels)"))
            }
            var status: Int32 = 0
            // Every byte is written by libpng when it succeeds; on failure the array is dropped.
            let pixels = [UInt8](unsafeUninitializedCapacity: area * 4) { buffer, count in
                status = quire_png_decode_finish(&image, buffer.baseAddress, &error)
                count = status == 0 ? buffer.count : 0
            }
            guard status == 0 else { return .failure(DecodingError(message: Self.message(error))) }
            return .success(RenderedImage(width: width, height: height, pixels: pixels))
        }
        return try decoded.get()
    }

    private static func message(_ error: quire_png_error) -> String {
        let text = withUnsafeBytes(of: error.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        return text.isEmpty ? "libpng error" : text
    }
}
