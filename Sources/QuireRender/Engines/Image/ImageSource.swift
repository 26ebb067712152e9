internal import CCairo
import QuireTypes

/// A raster image (PNG, JPEG, GIF's first frame, WebP, TIFF, BMP, ICO…) as one page whose size
/// in points is its upright pixel size. Rasters are decoded at the requested size.
final class ImageSource: PageSource {
    let decoder: ImageDecoder
    let path: DocumentPath
    /// Upright pixel size (EXIF orientation applied).
    let width: Int
    let height: Int
    let orientation: Int
    /// The orientation turned here after decoding: one given by the file around the image (a
    /// camera RAW's), when the image itself carries none; 1 when the decoder turns it (EXIF).
    private let turnedHere: Int
    /// For a thumbnail of an animation that plays: the animation, searched for its first frame
    /// that is not blank when the first is (a GIF that fades in from nothing).
    var thumbnailAnimation: (info: AnimationInfo, mimeType: String, file: InputFile, limits: RenderLimits)?
    /// Frames looked at past the first for one that is not blank.
    static let framesSearched = 16
    var pageCount: Int { 1 }
    var isPaper: Bool { false }
    var isRaster: Bool { true }

    /// - Parameter given: the orientation the container says (a RAW file's), used when the
    ///   image's own EXIF says none.
    init(decoder: ImageDecoder, header: [UInt8], orientation given: Int? = nil) throws(DocumentError) {
        self.decoder = decoder
        path = decoder.path
        let stored = try decoder.probe()
        let embedded = ExifOrientation.read(header)
        turnedHere = embedded == 1 ? given ?? 1 : 1
        orientation = embedded == 1 ? given ?? 1 : embedded
        let swap = ExifOrientation.swapsAxes(orientation)
        width = swap ? stored.height : stored.width
        height = swap ? stored.width : stored.height
    }

    func pageSize(at index: Int) -> PageSize { PageSize(width: Double(width), height: Double(height)) }

    func raster(page index: Int, width: Int, height: Int) throws(DocumentError) -> CairoImage {
        let swap = ExifOrientation.swapsAxes(orientation)
        let (w, h) = swap ? (height, width) : (width, height)
        guard let image = try decoder.decode(target: { _, _ in (w, h) }) else {
            throw DocumentError(kind: .damaged, path: path, reason: "the image could not be decoded")
        }
        if let animation = thumbnailAnimation, Self.isBlank(image.rendered()),
           let frame = try? firstFrameNotBlank(animation, width: w, height: h) {
            return try CairoImage(frame)
        }
        return try image.oriented(turnedHere, path: path)
    }

    /// Whether a frame is blank: nothing but transparency, white or black, all over.
    static func isBlank(_ image: RenderedImage) -> Bool {
        guard image.pixels.count >= 4 else { return true }
        let (r, g, b, a) = (image.pixels[0], image.pixels[1], image.pixels[2], image.pixels[3])
        guard a == 0 || (r == g && g == b && (r == 0 || r == 255)) else { return false }
        return image.pixels.withUnsafeBytes { bytes in
            let words = bytes.bindMemory(to: UInt32.self)
            let first = words[0]
            return !words.contains { $0 != first }
        }
    }

    /// The first of the animation's next frames that is not blank, nil when all are (or the
    /// animation cannot be decoded).
    private func firstFrameNotBlank(_ animation: (info: AnimationInfo, mimeType: String, file: InputFile, limits: RenderLimits),
                                    width: Int, height: Int) throws(DocumentError) -> RenderedImage? {
        let frames = try AnimationFrames(file: animation.file, info: animation.info, width: self.width, height: self.height,
                                         mimeType: animation.mimeType, limits: animation.limits)
        for number in 1..<min(animation.info.frames, Self.framesSearched + 1) {
            let image = try frames.frame(number, width: width, height: height).image
            if !Self.isBlank(image) { return image }
        }
        return nil
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        guard let decoded = try decoder.decode(target: { w, h in (w, h) }) else {
            throw DocumentError(kind: .damaged, path: path, reason: "the image could not be decoded")
        }
        try decoded.oriented(turnedHere, path: path).paint(in: cr, width: Double(width), height: Double(height))
    }
}

extension RenderEngine {
    /// Raster images through gdk-pixbuf (decoded at the size drawn where the format allows).
    static let image = RenderEngine(name: "image", families: [.image]) { (input) throws(DocumentError) in
        let header: [UInt8]
        do throws(InputError) { header = try input.file.read(upTo: 256 * 1024) } catch { throw DocumentError(error) }
        let decoder = ImageDecoder(source: .file(input.file), path: input.file.path, limits: input.limits)
        do throws(DocumentError) {
            let animation = AnimationInfo.read(input.file)
            let source = try ImageSource(decoder: decoder, header: header)
            // A thumbnail of an animation that plays is its first frame that is not blank.
            if input.preferEmbeddedPreview, let animation,
               AnimationFrames.refusal(animation, width: source.width, height: source.height, mimeType: input.contentType.mimeType,
                                       limits: input.limits) == nil {
                source.thumbnailAnimation = (animation, input.contentType.mimeType, input.file, input.limits)
            }
            var opened = Opened(source: source,
                                details: (PhotoDetails.ofPhoto(head: header, file: input.file)?.cardRows ?? []) + (animation?.cardRows ?? []))
            opened.animation = animation
            return opened
        } catch where error.kind == .damaged {
            // A HEIC or DjVu file gdk-pixbuf has no loader for is not damaged: say what `info`
            // says, and what to install. (Asked only on failure: a loader may read a type it
            // registers under another name.)
            guard let missing = ImageProbe.missingLoader(for: input.contentType) else { throw error }
            throw DocumentError(kind: .unsupported, path: input.file.path, reason: missing)
        }
    }
}
