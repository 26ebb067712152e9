internal import CCairo
import QuireTypes

/// A comic-book archive as pages: each image a page at its own pixel size (a double-page spread
/// stays wide), in natural name order; the cover is page 1 and the thumbnail. A page's size comes
/// from its header, read when the book is opened; its pixels are decoded when it is drawn, at
/// the size drawn, through the image engine's decoder (pixel bombs refused from the header).
final class ComicBookSource: PageSource {
    let archive: ComicBookArchive
    let path: DocumentPath
    /// Upright pixel size of each page (a page whose header could not be read takes the size of
    /// the one before it; drawing it says why it is not shown).
    private let sizes: [PageSize]
    private let orientations: [Int]
    var pageCount: Int { sizes.count }
    var isPaper: Bool { false }
    var isRaster: Bool { true }

    init(archive: ComicBookArchive) {
        self.archive = archive
        path = archive.file.path
        var sizes: [PageSize] = [], orientations: [Int] = []
        for page in archive.pages {
            let decoder = ImageDecoder(source: .bytes(page.header, name: page.name), path: archive.file.path, limits: archive.limits)
            let orientation = ExifOrientation.read(page.header)
            if let stored = try? decoder.probe(checkingIntegrity: false) {
                let swap = ExifOrientation.swapsAxes(orientation)
                sizes.append(PageSize(width: Double(swap ? stored.height : stored.width), height: Double(swap ? stored.width : stored.height)))
            } else {
                sizes.append(sizes.last ?? PageSize(width: 1000, height: 1500))
            }
            orientations.append(orientation)
        }
        self.sizes = sizes
        self.orientations = orientations
    }

    func pageSize(at index: Int) -> PageSize { sizes[index] }

    /// Page `index`'s decoder over its whole bytes.
    private func decoder(_ index: Int) throws(DocumentError) -> ImageDecoder {
        let page = archive.pages[index]
        return ImageDecoder(source: .bytes(try archive.contents(of: page), name: page.name), path: path, limits: archive.limits)
    }

    func raster(page index: Int, width: Int, height: Int) throws(DocumentError) -> CairoImage {
        let swap = ExifOrientation.swapsAxes(orientations[index])
        let (w, h) = swap ? (height, width) : (width, height)
        let decoder = try decoder(index)
        _ = try decoder.probe()
        guard let image = try decoder.decode(target: { _, _ in (w, h) }) else {
            throw DocumentError(kind: .damaged, path: path, reason: "page \(index + 1) could not be decoded")
        }
        return image
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        let decoder = try decoder(index)
        _ = try decoder.probe()
        guard let image = try decoder.decode(target: { w, h in (w, h) }) else {
            throw DocumentError(kind: .damaged, path: path, reason: "page \(index + 1) could not be decoded")
        }
        image.paint(in: cr, width: sizes[index].width, height: sizes[index].height)
    }
}

extension RenderEngine {
    /// Comic-book archives (CBZ, CBR, CB7, CBT): the images as pages, `ComicInfo.xml` on the card.
    static let comicBook = RenderEngine(name: "comic-book", families: [.comicBook]) { (input) throws(DocumentError) in
        let archive = try ComicBookArchive(file: input.file, limits: input.limits)
        let summary = ComicBookSummary(archive)
        return Opened(source: ComicBookSource(archive: archive), embeddedPreviewName: archive.pages[0].name,
                      details: summary.details, title: summary.displayTitle, author: summary.writer)
    }
}
