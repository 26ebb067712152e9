#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Quire

/// A rendered page in the form a window paints it: premultiplied ARGB, one native-endian 32-bit
/// word per pixel (cairo's `CAIRO_FORMAT_ARGB32`, `width * 4` bytes per row), in memory of its
/// own. The render worker's answer is read straight into it and converted in place, so a page
/// exists once in the viewer, not as a read buffer, an RGBA copy and a converted copy; a window
/// wraps it in a cairo image surface without copying (`cairo_image_surface_create_for_data`).
///
/// The memory is an anonymous mapping, not malloc's: a dropped page goes back to the system at
/// once, whatever malloc's thresholds and arenas (pages come and go on the render thread, whose
/// malloc arena would keep the freed megabytes resident).
///
/// Sendable (checked): every stored property is an immutable value. The memory is written by
/// the render thread before the page is handed over through the render queue's mutex, and only
/// read after, as an array's storage would be.
public final class PagePixels: Sendable {
    public let width: Int
    public let height: Int
    /// The mapping's address.
    private let address: UInt
    /// `width * height * 4` bytes.
    public var base: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: address)! }
    public var byteCount: Int { width * height * 4 }
    private let mappedBytes: Int

    /// Room for a `width` × `height` page (contents undefined until filled); nil when the
    /// system has no memory for it.
    public init?(width: Int, height: Int) {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else { return nil }
        let bytes = width * height * 4
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapped = (bytes + page - 1) / page * page
        let address = mmap(nil, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let address, address != MAP_FAILED else { return nil }
        self.width = width
        self.height = height
        self.address = UInt(bitPattern: address)
        self.mappedBytes = mapped
    }

    /// The page of an RGBA image (one conversion, for renderers in this process).
    public convenience init?(_ image: RenderedImage) {
        self.init(width: image.width, height: image.height)
        image.pixels.withUnsafeBytes { source in
            base.copyMemory(from: source.baseAddress!, byteCount: byteCount)
        }
        Self.premultiplyInPlace(base, count: width * height)
    }

    deinit { munmap(base, mappedBytes) }

    /// Converts `count` pixels of straight-alpha RGBA bytes to premultiplied native ARGB words,
    /// in place (the same four bytes per pixel).
    public static func premultiplyInPlace(_ pixels: UnsafeMutableRawPointer, count: Int) {
        let bytes = pixels.assumingMemoryBound(to: UInt8.self)
        let words = pixels.assumingMemoryBound(to: UInt32.self)
        for index in 0..<count {
            let from = index * 4
            let red = UInt32(bytes[from]), green = UInt32(bytes[from + 1]), blue = UInt32(bytes[from + 2])
            let alpha = UInt32(bytes[from + 3])
            if alpha == 255 {
                words[index] = 0xFF00_0000 | red << 16 | green << 8 | blue
            } else {
                words[index] = alpha << 24 | (red * alpha / 255) << 16 | (green * alpha / 255) << 8 | blue * alpha / 255
            }
        }
    }

    /// The page as straight-alpha RGBA (for tests and comparisons; a copy).
    public var image: RenderedImage {
        let words = base.assumingMemoryBound(to: UInt32.self)
        var pixels = [UInt8](repeating: 0, count: byteCount)
        for index in 0..<(width * height) {
            let word = words[index]
            let alpha = word >> 24
            func straight(_ value: UInt32) -> UInt8 {
                alpha == 255 || alpha == 0 ? UInt8(value & 0xFF) : UInt8(min(255, (value & 0xFF) * 255 / alpha))
            }
            pixels[index * 4] = straight(word >> 16)
            pixels[index * 4 + 1] = straight(word >> 8)
            pixels[index * 4 + 2] = straight(word)
            pixels[index * 4 + 3] = UInt8(alpha)
        }
        return RenderedImage(width: width, height: height, pixels: pixels)
    }
}
