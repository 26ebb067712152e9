import QuireTypes

extension RenderEngine {
    /// JPEG XL images through libjxl: the first frame decoded whole (within the pixel limit),
    /// upright, then scaled to the size drawn; an animation's frames and timing from its frame
    /// headers (a viewer plays it through ``JPEGXLAnimation``).
    static let jpegXL = RenderEngine(name: "jpeg-xl", families: [.image], open: { (input) throws(DocumentError) in
        let image = try JPEGXLImage.image(of: input.file, limits: input.limits)
        var opened = Opened(source: DecodedImageSource(image: image, path: input.file.path))
        if let animation = AnimationInfo.read(input.file) {
            opened.animation = animation
            opened.details = animation.cardDetails
        }
        return opened
    }, accepts: { (type, _) in JPEGXLImage.applies(to: type) })
}
