import QuireTypes

extension RenderEngine {
    /// JPEG XL images through libjxl: the first frame decoded whole (within the pixel limit),
    /// upright, then scaled to the size drawn; an animation's frames and timing from its frame
    /// headers (a viewer plays it through ``JPEGXLAnimation``).
    static let jpegXL = RenderEngine(name: "jpeg-xl", families: [.image], open: { (input) throws(DocumentError) in
        var image = try JPEGXLImage.image(of: input.file, limits: input.limits)
        let animation = AnimationInfo.read(input.file)
        // A thumbnail of an animation that plays is its first frame that is not blank.
        if input.preferEmbeddedPreview, let animation,
           AnimationFrames.refusal(animation, width: image.width, height: image.height, mimeType: input.contentType.mimeType,
                                   limits: input.limits) == nil,
           ImageSource.isBlank(image.rendered()),
           let frame = (try? JPEGXLAnimation(file: input.file, width: image.width, height: image.height))?
               .firstFrameNotBlank(of: animation.frames, width: image.width, height: image.height) {
            image = try CairoImage(frame)
        }
        var opened = Opened(source: DecodedImageSource(image: image, path: input.file.path))
        if let animation {
            opened.animation = animation
            opened.details = animation.cardRows
        }
        return opened
    }, accepts: { (type, _) in JPEGXLImage.applies(to: type) })
}
