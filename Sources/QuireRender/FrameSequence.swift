/// An animation whose frames Quire composes or decodes itself, one at a time in order (an APNG's
/// frames drawn on a canvas, an animated JPEG XL's decoded by libjxl): ``AnimationFrames`` asks
/// it for frame after frame; a frame before the last one made starts it again.
protocol FrameSequence: AnyObject {
    /// Frame `number` (0-based) fitted into `width` × `height`, straight-alpha RGBA, and how long
    /// it shows (milliseconds).
    func frame(_ number: Int, width: Int, height: Int) throws(DocumentError) -> (image: RenderedImage, delay: Int)
}
