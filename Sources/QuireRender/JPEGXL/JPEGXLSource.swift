import QuireTypes

extension RenderEngine {
    /// JPEG XL images through libjxl: the first frame decoded whole (within the pixel limit),
    /// upright, then scaled to the size drawn.
    static let jpegXL = RenderEngine(name: "jpeg-xl", families: [.image], open: { (input) throws(DocumentError) in
        let image = try JPEGXLImage.image(of: input.file, limits: input.limits)
        return Opened(source: DecodedImageSource(image: image, path: input.file.path))
    }, accepts: { (type, _) in JPEGXLImage.applies(to: type) })
}
