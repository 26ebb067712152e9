/// An animation whose frames Quire composes or decodes itself, one at a time in order (an APNG's
/// frames drawn on a canvas, an animated JPEG XL's decoded by libjxl): ``AnimationFrames`` asks
/// it for frame after frame; a frame before the last one made starts it again.
protocol FrameSequence: AnyObject {
    /// Frame `number` (0-based) fitted into `width` × `height`, straight-alpha RGBA, and how long
    /// it shows (milliseconds).
    func frame(_ number: Int, width: Int, height: Int) throws(DocumentError) -> (image: RenderedImage, delay: Int)
}

extension FrameSequence {
    /// The first of frames 1…``ImageSource/framesSearched`` that is not blank, for the thumbnail
    /// of an animation whose first frame is (one that fades in from nothing); nil when they all
    /// are, or one cannot be decoded.
    func firstFrameNotBlank(of frames: Int, width: Int, height: Int) -> RenderedImage? {
        for number in 1..<max(1, min(frames, ImageSource.framesSearched + 1)) {
            guard let image = try? frame(number, width: width, height: height).image else { return nil }
            if !ImageSource.isBlank(image) { return image }
        }
        return nil
    }
}
