/// A rendered raster: 8-bit RGBA, straight (not premultiplied) alpha, rows top to bottom with no
/// padding (`width * 4` bytes per row).
public struct RenderedImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A per pixel.
    public let pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4, "RGBA buffer size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// One pixel.
    public struct Pixel: Sendable, Hashable, CustomStringConvertible {
        public let red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8
        public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
            self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
        }
        public var description: String { "rgba(\(red), \(green), \(blue), \(alpha))" }
    }

    /// The pixel at column `x`, row `y` (0-based, from the top-left corner).
    public func pixel(x: Int, y: Int) -> Pixel {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel out of bounds")
        let offset = (y * width + x) * 4
        return Pixel(red: pixels[offset], green: pixels[offset + 1], blue: pixels[offset + 2], alpha: pixels[offset + 3])
    }

    /// The longest side in pixels.
    public var longestSide: Int { max(width, height) }
}
