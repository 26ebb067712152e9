import QuireTypes

/// A HEIF file's top-level images as pages, the primary first (a single photo is one page; a
/// burst or a collection, each of its pictures). Each page is decoded when drawn, the last one
/// kept; a small raster (a thumbnail) is drawn from the thumbnail the file carries when it is
/// large enough.
final class HEIFSource: PageSource {
    let heif: HEIFFile
    let limits: RenderLimits
    var path: DocumentPath { heif.path }
    var pageCount: Int { heif.images.count }
    var isPaper: Bool { false }
    var isRaster: Bool { true }
    private var kept: (index: Int, thumbnailSide: Int, image: CairoImage)?

    init(heif: HEIFFile, limits: RenderLimits) {
        self.heif = heif
        self.limits = limits
    }

    func pageSize(at index: Int) -> PageSize {
        let size = heif.sizes[index]
        return PageSize(width: Double(size.width), height: Double(size.height))
    }

    private func image(_ index: Int, thumbnailSide: Int) throws(DocumentError) -> CairoImage {
        if let kept, kept.index == index, kept.thumbnailSide == thumbnailSide { return kept.image }
        let image = try heif.image(index, thumbnailSide: thumbnailSide, limits: limits)
        kept = (index, thumbnailSide, image)
        return image
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        let size = pageSize(at: index)
        try image(index, thumbnailSide: 0).paint(in: cr, width: size.width, height: size.height)
    }

    /// A raster no larger than the file's own thumbnail is drawn from it (a phone's HEIC carries
    /// one of 320 pixels or so: a file manager's thumbnail needs no decode of 12 megapixels).
    func raster(page index: Int, width: Int, height: Int) throws(DocumentError) -> CairoImage {
        let side = max(width, height)
        let size = heif.sizes[index]
        let source = try image(index, thumbnailSide: side < max(size.width, size.height) ? side : 0)
        let result = try CairoImage(width: width, height: height, path: path)
        try result.draw(path: path) { (cr) throws(DocumentError) in
            source.paint(in: cr, width: Double(width), height: Double(height))
        }
        return result
    }
}

extension RenderEngine {
    /// HEIF, HEIC and AVIF through libheif: every top-level image a page (the primary first), the
    /// file's own thumbnail for small rasters, the shot's details (its Exif item) on the card.
    /// Without libheif these types go to the image engine (gdk-pixbuf's loaders, if installed).
    static let heif = RenderEngine(name: "heif", families: [.image], open: { (input) throws(DocumentError) in
        let header: [UInt8]
        do throws(InputError) { header = try input.file.read(upTo: 256 * 1024) } catch { throw DocumentError(error) }
        // An AVIF image sequence (animated AVIF): its frames from libavif; its still image from
        // libheif when it has one, else the first frame.
        let animation = AVIFSequence.isSequence(header) ? AnimationInfo.read(input.file) : nil
        let heif: HEIFFile
        do throws(DocumentError) {
            heif = try HEIFFile(file: input.file, limits: input.limits)
        } catch where AVIFSequence.isSequence(header) && error.kind == .damaged {
            let sequence = try AVIFSequence(file: input.file, limits: input.limits)
            var image = try sequence.image(0)
            // A thumbnail of an animation that plays is its first frame that is not blank.
            if input.preferEmbeddedPreview, let animation,
               AnimationFrames.refusal(animation, width: sequence.width, height: sequence.height, mimeType: input.contentType.mimeType,
                                       limits: input.limits) == nil,
               ImageSource.isBlank(image.rendered()),
               let frame = sequence.firstFrameNotBlank(of: animation.frames, width: sequence.width, height: sequence.height) {
                image = try CairoImage(frame)
            }
            var opened = Opened(source: DecodedImageSource(image: image, path: input.file.path),
                                details: animation?.cardRows ?? [])
            opened.animation = animation
            return opened
        }
        var details = PhotoDetails.ofPhoto(head: header, file: input.file)?.cardRows ?? []
        if heif.images.count > 1 { details.append(CardRow("Images", "\(heif.images.count)")) }
        details += animation?.cardRows ?? []
        var opened = Opened(source: HEIFSource(heif: heif, limits: input.limits), details: details)
        opened.animation = animation
        return opened
    }, accepts: { (type, _) in HEIFFile.applies(to: type) })
}
