import Quire

/// A decoded screenshot (RGBA), with the counts a window test asks for.
public struct Screenshot: Sendable {
    public let path: String
    public let image: RenderedImage

    public init(path: String) throws {
        let document = try Document(path: DocumentPath(path))
        image = try document.renderer().render(page: 0, size: .natural)
        self.path = path
    }

    /// Pixels for which `matches(r, g, b)` holds.
    public func count(_ matches: (UInt8, UInt8, UInt8) -> Bool) -> Int {
        var count = 0
        image.pixels.withUnsafeBufferPointer { pixels in
            var offset = 0
            while offset < pixels.count {
                if matches(pixels[offset], pixels[offset + 1], pixels[offset + 2]) { count += 1 }
                offset += 4
            }
        }
        return count
    }

    /// Pure-ish red pixels (the sample document's first page has a red rectangle).
    public var redPixels: Int { count { r, g, b in r > 200 && g < 60 && b < 60 } }
    /// White pixels (paper).
    public var whitePixels: Int { count { r, g, b in r > 250 && g > 250 && b > 250 } }

    /// Pixels that differ between two screenshots of the same size.
    public func differingPixels(from other: Screenshot) -> Int {
        guard image.width == other.image.width, image.height == other.image.height else { return image.pixels.count / 4 }
        var count = 0
        image.pixels.withUnsafeBufferPointer { a in
            other.image.pixels.withUnsafeBufferPointer { b in
                var offset = 0
                while offset < a.count {
                    if a[offset] != b[offset] || a[offset + 1] != b[offset + 1] || a[offset + 2] != b[offset + 2] { count += 1 }
                    offset += 4
                }
            }
        }
        return count
    }
}
