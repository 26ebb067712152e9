import QuireTypes

/// A PDF's first page drawn without cairo where cairo is slow or wasteful, for thumbnails: a
/// page that is one image (a scan, a photo: decoded at thumbnail size, ``ScannedPageProbe``) and a
/// page with shadings cairo takes seconds and gigabytes on (poppler's Splash backend,
/// ``PageBackendProbe``). Every thumbnail's drawing
/// (``Thumbnail/firstPage(_:contentType:sizes:password:limits:interpreters:)``) tries it first.
package enum PDFFirstPageFastPath {
    /// The first page at each requested size (longest side), and the document's page count.
    package struct Drawn {
        package var images: [Int: RenderedImage]
        package var pageCount: Int
    }

    /// The page drawn by a fast path, or nil when none applies (or its library is missing, or
    /// it cannot open the file): the caller then draws with poppler-glib and cairo, which
    /// reports the file's own problem.
    package static func draw(_ file: InputFile, sizes: [Int], limits: RenderLimits) throws(DocumentError) -> Drawn? {
        let names = PDFNameScan(file)
        if let scanned = scannedPage(file, names: names, sizes: sizes) { return scanned }
        guard PageBackendProbe.prefersSplash(file, names: names), SplashPDFDocument.isAvailable else { return nil }
        let document: SplashPDFDocument
        do { document = try SplashPDFDocument(file: file) } catch { return nil }
        var images: [Int: RenderedImage] = [:]
        for size in sizes {
            images[size] = try document.render(page: 0, size: .longestSide(size), limits: limits)
        }
        return Drawn(images: images, pageCount: document.pageCount)
    }

    /// A first page that is one image on the page (with or without white margins): a JPEG is
    /// decoded at a reduced DCT scale, a Flate image inflated row by row into a box filter,
    /// instead of letting poppler decode every pixel at full size; the image goes where the page
    /// draws it, on white. A Flate image is taken only when it is at least twice its place in
    /// the thumbnail in both directions (smaller ones are cheap for poppler, and the box filter
    /// is exact only when reducing).
    static func scannedPage(_ file: InputFile, names: PDFNameScan, sizes: [Int]) -> Drawn? {
        guard let scan = ScannedPageProbe.scan(of: file, names: names) else { return nil }
        var images: [Int: RenderedImage] = [:]
        for size in sizes {
            let scale = Double(size) / max(scan.pageWidth, scan.pageHeight)
            let width = max(1, Int((scan.pageWidth * scale).rounded()))
            let height = max(1, Int((scan.pageHeight * scale).rounded()))
            let place = scan.placement
            let x = min(width - 1, Int((place.x * scale).rounded())), y = min(height - 1, Int((place.y * scale).rounded()))
            let drawnWidth = scan.coversPage ? width : max(1, min(width - x, Int((place.width * scale).rounded())))
            let drawnHeight = scan.coversPage ? height : max(1, min(height - y, Int((place.height * scale).rounded())))
            let decoded: RenderedImage?
            switch scan.image {
            case .jpeg(let jpeg):
                decoded = ScaledJPEGDecoder.decode(jpeg, width: drawnWidth, height: drawnHeight)
            case .flate(let source):
                guard source.width >= 2 * drawnWidth, source.height >= 2 * drawnHeight else { return nil }
                decoded = FlateImageDownscaler.downscale(source, width: drawnWidth, height: drawnHeight)
            }
            guard let drawn = decoded, drawn.width == drawnWidth, drawn.height == drawnHeight else { return nil }
            images[size] = drawnWidth == width && drawnHeight == height
                ? drawn : onWhitePage(drawn, x: x, y: y, width: width, height: height)
        }
        return Drawn(images: images, pageCount: scan.pageCount)
    }

    /// `image` placed with its top-left corner at (`x`, `y`) on an opaque white page of
    /// `width`×`height` (whatever falls outside the page is cut).
    package static func onWhitePage(_ image: RenderedImage, x: Int, y: Int, width: Int, height: Int) -> RenderedImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let columns = max(0, min(image.width, width - x))
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { page in
                for row in 0..<min(image.height, height - y) where columns > 0 {
                    let from = row * image.width * 4, to = ((y + row) * width + x) * 4
                    for index in 0..<(columns * 4) { page[to + index] = source[from + index] }
                }
            }
        }
        return RenderedImage(width: width, height: height, pixels: pixels)
    }
}
