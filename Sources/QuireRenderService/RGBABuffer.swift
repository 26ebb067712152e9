import QuireRender

/// Memory for one page of straight-alpha RGBA pixels, read from the worker's pipe.
final class RGBABuffer {
    let width: Int
    let height: Int
    let base: UnsafeMutableRawPointer

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        base = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 16)
        // Cleared: whatever is not read into it is zeros, never memory the process held before.
        base.initializeMemory(as: UInt8.self, repeating: 0, count: width * height * 4)
    }

    deinit { base.deallocate() }

    /// The pixels as an image (one copy).
    var image: RenderedImage {
        let bytes = Array(UnsafeRawBufferPointer(start: base, count: width * height * 4))
        return RenderedImage(width: width, height: height, pixels: bytes)
    }
}
