internal import CJXL
#if canImport(Glibc)
import Glibc
#endif
import QuireTypes

/// A JPEG XL image decoded by libjxl (no gdk-pixbuf loader for it ships in Debian 12): its
/// upright size from the header, and its first frame as pixels, upright. The size is checked
/// against the pixel limit before any pixel buffer is made.
enum JPEGXLImage {
    /// shared-mime-info's type for JPEG XL (a bare codestream or the ISOBMFF container).
    static func applies(to type: ContentType) -> Bool {
        type.mimeType == "image/jxl"
    }

    /// Whether `head` (a file's first 12 bytes or more) starts a JPEG XL codestream or container.
    static func hasSignature(_ head: [UInt8]) -> Bool {
        head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
    }

    /// The upright pixel size from the header (any size: nothing is decoded).
    static func size(of file: InputFile) throws(DocumentError) -> (width: Int, height: Int) {
        var unlimited = RenderLimits.standard
        unlimited.maximumImagePixels = .max
        let (width, height, _) = try decode(file, limits: unlimited, headerOnly: true)
        return (width, height)
    }

    /// The first frame, upright (as the file's orientation says), as a cairo surface.
    static func image(of file: InputFile, limits: RenderLimits) throws(DocumentError) -> CairoImage {
        let (width, height, pixels) = try decode(file, limits: limits, headerOnly: false)
        guard let pixels else {
            throw DocumentError(kind: .damaged, path: file.path, reason: "not a readable JPEG XL image (no picture in it)")
        }
        defer { free(pixels) }
        return try CairoImage(copyingRGBA: pixels, width: width, height: height, path: file.path)
    }

    /// An animated image's frames, length and loops, and each frame's delay (ms), read from the
    /// frame headers (no pixel decoded); nil for a still image, damaged data, or no libjxl.
    /// Counting stops past ``AnimationFrames/maximumFrames`` (the animation is then refused).
    static func animation(_ bytes: [UInt8], api: quire_jxl_api? = nil) -> (info: AnimationInfo, delays: [Int])? {
        guard let api = api ?? (try? LazyLibraries.jxl(DocumentPath("image.jxl"))) else { return nil }
        let capacity = AnimationFrames.maximumFrames
        var durations = [UInt32](repeating: 0, count: capacity)
        var count: UInt32 = 0, loops: UInt32 = 0
        var animated: Int32 = 0
        let status = StandardOutputDiversion.run {
            withUnsafePointer(to: api) { api in
                bytes.withUnsafeBufferPointer { buffer in
                    durations.withUnsafeMutableBufferPointer { durations in
                        quire_jxl_animation(api, buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count,
                                            durations.baseAddress!, UInt32(capacity), &count, &loops, &animated)
                    }
                }
            }
        }
        guard status == QUIRE_JXL_OK, animated != 0, count > 1 else { return nil }
        let delays = durations.prefix(min(Int(count), capacity)).map { Int((AnimationInfo.delay(Double($0) / 1000) * 1000).rounded()) }
        let info = AnimationInfo(frames: Int(count), duration: Double(delays.reduce(0, +)) / 1000,
                                 loops: loops == 0 ? 0 : (loops == 1 ? nil : Int(loops) - 1), isCut: false)
        return (info, delays)
    }

    private static func decode(_ file: InputFile, limits: RenderLimits,
                               headerOnly: Bool) throws(DocumentError) -> (Int, Int, UnsafeMutablePointer<UInt8>?) {
        let api = try LazyLibraries.jxl(file.path)
        let bytes: [UInt8]
        // The whole file: libjxl's header may sit behind other boxes; the file size limit bounds it.
        do throws(InputError) { bytes = try file.read(upTo: Int(file.size)) } catch { throw DocumentError(error) }
        var width: UInt32 = 0, height: UInt32 = 0
        var pixels: UnsafeMutablePointer<UInt8>?
        // libjxl prints where its decoder failed ("decode.cc:2143: missing input") on standard
        // error, which would break the one-line error.
        let status = StandardOutputDiversion.run {
            withUnsafePointer(to: api) { api in
                bytes.withUnsafeBufferPointer { buffer in
                    quire_jxl_decode(api, buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count,
                                     UInt64(max(0, limits.maximumImagePixels)), headerOnly ? 1 : 0, &width, &height, &pixels)
                }
            }
        }
        let path = file.path
        switch status {
        case QUIRE_JXL_OK:
            return (Int(width), Int(height), pixels)
        case QUIRE_JXL_TOO_LARGE:
            throw limits.pixelRefusal(Int(width), Int(height), path: path)
        case QUIRE_JXL_TRUNCATED:
            throw DocumentError(kind: .damaged, path: path, reason: "not a readable JPEG XL image (the file ends before the image does)")
        case QUIRE_JXL_NO_MEMORY, QUIRE_JXL_NO_DECODER:
            throw DocumentError(kind: .limitExceeded, path: path, reason: "not enough memory to decode the JPEG XL image")
        default:
            // libjxl 0.7 reports a container cut short as an error, not as input missing.
            throw DocumentError(kind: .damaged, path: path, reason: "not a readable JPEG XL image (damaged or cut short)")
        }
    }
}
