/// One frame of an animated image as the render worker drew it (``PageRenderJob/frame``):
/// its pixels, ready to paint as a page's, and how long it shows.
public struct AnimationFrame: Sendable {
    public let pixels: PagePixels
    /// Milliseconds the frame shows before the next (the file's own delay).
    public let delay: Int

    public init(pixels: PagePixels, delay: Int) {
        self.pixels = pixels
        self.delay = delay
    }
}
